// Stands in for journald on a machine without it, so `wcbench` can measure the daemons' journal path
// (BENCHMARKS.md, *Messages at 64 in flight*): binds the native socket, reads and drops every datagram, and
// prints how many it read when stopped (SIGTERM or SIGINT). It removes nothing it did not make: run it only
// where no journald listens, and remove the socket afterwards.
//
// build: gcc -O2 -o /tmp/fake-journal scripts/bench/fake-journal.c
// usage: mkdir -p /run/systemd/journal && /tmp/fake-journal &
//        printf '#!/bin/sh\nWATCHPAIR_LOG_DESTINATION=journal exec "$@"\n' > /tmp/jwrap.sh && chmod +x /tmp/jwrap.sh
//        scripts/bench/alternate.sh OLD NEW OUT 5 --only baseline,message --daemon-wrapper /tmp/jwrap.sh
//        kill %1; rm /run/systemd/journal/socket; rmdir /run/systemd/journal
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

static volatile sig_atomic_t stop;
static void on_signal(int signal) { (void)signal; stop = 1; }

int main(int argc, char **argv) {
    const char *path = argc > 1 ? argv[1] : "/run/systemd/journal/socket";
    int descriptor = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
    // journald's own receive buffer is 8 MiB: a smaller one would make the daemons' sends wait sooner.
    int size = 8 << 20;
    setsockopt(descriptor, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size);
    struct sockaddr_un address = {0};
    address.sun_family = AF_UNIX;
    strncpy(address.sun_path, path, sizeof address.sun_path - 1);
    if (bind(descriptor, (struct sockaddr *)&address, sizeof address) != 0) {
        perror("fake-journal: bind");
        return 1;
    }
    struct sigaction action = {0};
    action.sa_handler = on_signal;  // no SA_RESTART: the blocked recv returns
    sigaction(SIGTERM, &action, NULL);
    sigaction(SIGINT, &action, NULL);
    static char buffer[1 << 17];
    long count = 0;
    while (!stop) {
        if (recv(descriptor, buffer, sizeof buffer, 0) > 0) count++;
    }
    fprintf(stderr, "fake-journal: %ld datagrams\n", count);
    close(descriptor);
    return 0;
}
