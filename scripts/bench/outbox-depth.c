// A reproduction of phoned's outbox write path outside WatchPair, to see what one queued transfer costs
// SQLite as the backlog behind it grows (BENCHMARKS.md, "Cost growth"). The same libsqlite3, schema and
// pragmas as the store (1 KiB pages, WAL, synchronous=FULL, secure_delete=OFF, the default page cache), and
// the same statements per group commit: read meta 'last_seq', then per transfer the duplicate check
// `SELECT 1 FROM outbox WHERE transfer_id = ?` and the INSERT, then write 'last_seq' back.
//
// usage: outbox-depth DIR random|ordered [CACHE_SIZE] [DEPTH...]
//   random:  transfer ids are random UUIDs (UUID() in Swift), as before
//   ordered: time-ordered ids (a 48-bit millisecond clock and a counter first, then random bits)
//   CACHE_SIZE: PRAGMA cache_size for the connection (default -2000: SQLite's 2,000 KiB)
// For each depth it fills the outbox to DEPTH - 1,000 (synchronous=OFF, not measured), then queues 1,000
// more in batches of 64 with synchronous=FULL and prints, per transfer: CPU (user + system), the page
// cache's hits, misses and pages written (sqlite3_db_status), and the bytes read and written by syscalls
// (/proc/self/io rchar, wchar), which include the WAL and the checkpoints.
//
// build: cc -O2 -o outbox-depth scripts/bench/outbox-depth.c -lsqlite3
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>

static sqlite3 *db;
static int ordered;
static int64_t last_seq;

static void check(int rc, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_ROW && rc != SQLITE_DONE) {
        fprintf(stderr, "%s: %s\n", what, sqlite3_errmsg(db));
        exit(1);
    }
}

static void exec(const char *sql) {
    char *error = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &error) != SQLITE_OK) {
        fprintf(stderr, "%s: %s\n", sql, error);
        exit(1);
    }
}

static uint64_t splitmix(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

// 16 bytes: random (version 4), or a millisecond clock and a 12-bit counter first (version 7).
static void next_id(unsigned char id[16]) {
    static uint64_t seed = 0x5743506100000001ull;
    static uint64_t last_ms, counter;
    uint64_t a = splitmix(&seed), b = splitmix(&seed);
    memcpy(id, &a, 8);
    memcpy(id + 8, &b, 8);
    if (ordered) {
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        uint64_t ms = (uint64_t)now.tv_sec * 1000 + (uint64_t)now.tv_nsec / 1000000;
        if (ms <= last_ms) {
            if (++counter > 0xFFF) { last_ms++; counter = 0; }
            ms = last_ms;
        } else {
            last_ms = ms;
            counter = 0;
        }
        for (int i = 0; i < 6; i++) id[i] = (unsigned char)(ms >> (40 - 8 * i));
        id[6] = (unsigned char)(0x70 | (counter >> 8));
        id[7] = (unsigned char)counter;
    } else {
        id[6] = (id[6] & 0x0F) | 0x40;
    }
    id[8] = (id[8] & 0x3F) | 0x80;
}

static sqlite3_stmt *prepare(const char *sql) {
    sqlite3_stmt *statement;
    check(sqlite3_prepare_v3(db, sql, -1, SQLITE_PREPARE_PERSISTENT, &statement, NULL), sql);
    return statement;
}

// One group commit of `count` transfers, as BatchTransaction does it.
static void commit_batch(int count) {
    static sqlite3_stmt *read_meta, *exists, *insert, *write_meta;
    if (!read_meta) {
        read_meta = prepare("SELECT value FROM meta WHERE key = 'last_seq'");
        exists = prepare("SELECT 1 FROM outbox WHERE transfer_id = ?");
        insert = prepare("INSERT INTO outbox(seq, transfer_id, payload, created_at, finished, complication) VALUES (?, ?, ?, ?, 0, 0)");
        write_meta = prepare("INSERT INTO meta(key, value) VALUES ('last_seq', ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    }
    static const unsigned char payload[64] = {0xD0};
    exec("BEGIN IMMEDIATE");
    check(sqlite3_step(read_meta), "read meta");
    last_seq = sqlite3_column_int64(read_meta, 0);
    sqlite3_reset(read_meta);
    for (int i = 0; i < count; i++) {
        unsigned char id[16];
        next_id(id);
        sqlite3_bind_blob(exists, 1, id, 16, SQLITE_STATIC);
        if (sqlite3_step(exists) == SQLITE_ROW) { fprintf(stderr, "duplicate id\n"); exit(1); }
        sqlite3_reset(exists);
        sqlite3_bind_int64(insert, 1, ++last_seq);
        sqlite3_bind_blob(insert, 2, id, 16, SQLITE_STATIC);
        sqlite3_bind_blob(insert, 3, payload, sizeof payload, SQLITE_STATIC);
        sqlite3_bind_double(insert, 4, 785000000.0 + last_seq);
        check(sqlite3_step(insert), "insert");
        sqlite3_reset(insert);
    }
    sqlite3_bind_int64(write_meta, 1, last_seq);
    check(sqlite3_step(write_meta), "write meta");
    sqlite3_reset(write_meta);
    exec("COMMIT");
}

static void proc_io(long long *rchar, long long *wchar) {
    FILE *file = fopen("/proc/self/io", "r");
    char key[32];
    long long value;
    while (file && fscanf(file, "%31[^:]: %lld\n", key, &value) == 2) {
        if (!strcmp(key, "rchar")) *rchar = value;
        if (!strcmp(key, "wchar")) *wchar = value;
    }
    if (file) fclose(file);
}

static double cpu_seconds(void) {
    struct rusage usage;
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

static int status(int op) {
    int current = 0, high = 0;
    sqlite3_db_status(db, op, &current, &high, 1);
    return current;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s DIR random|ordered [CACHE_SIZE] [DEPTH...]\n", argv[0]);
        return 2;
    }
    ordered = !strcmp(argv[2], "ordered");
    const char *cache = argc > 3 ? argv[3] : "-2000";
    char path[4096];
    mkdir(argv[1], 0700);
    snprintf(path, sizeof path, "%s/outbox-%s.sqlite", argv[1], argv[2]);
    remove(path);
    char wal[4200];
    snprintf(wal, sizeof wal, "%s-wal", path);
    remove(wal);
    check(sqlite3_open(path, &db), "open");
    exec("PRAGMA page_size = 1024");
    exec("PRAGMA journal_mode = WAL");
    exec("PRAGMA secure_delete = OFF");
    char pragma[64];
    snprintf(pragma, sizeof pragma, "PRAGMA cache_size = %s", cache);
    exec(pragma);
    exec("CREATE TABLE meta (key TEXT PRIMARY KEY NOT NULL, value);"
         "CREATE TABLE outbox (seq INTEGER PRIMARY KEY, transfer_id BLOB NOT NULL UNIQUE, payload BLOB NOT NULL,"
         " created_at REAL NOT NULL, finished INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),"
         " complication INTEGER NOT NULL DEFAULT 0 CHECK (complication IN (0, 1)));"
         "CREATE INDEX outbox_state ON outbox(finished, seq);"
         "INSERT INTO meta VALUES ('last_seq', 0);");

    const int probe = 1000, batch = 64;
    printf("ids=%s cache_size=%s page_size=1024 batch=%d probe=%d\n", argv[2], cache, batch, probe);
    printf("%10s %12s %12s %12s %12s %14s %14s\n", "depth", "cpu_us", "cache_hit", "cache_miss", "cache_write",
           "read_B", "written_B");
    for (int arg = 4; arg < argc || arg == 4; arg++) {
        long depth = arg < argc ? atol(argv[arg]) : 100000;
        exec("PRAGMA synchronous = OFF");
        while (last_seq < depth - probe) {
            long left = depth - probe - last_seq;
            commit_batch(left < batch ? (int)left : batch);
        }
        exec("PRAGMA wal_checkpoint(TRUNCATE)");
        exec("PRAGMA synchronous = FULL");
        long long r0 = 0, w0 = 0, r1 = 0, w1 = 0;
        status(SQLITE_DBSTATUS_CACHE_HIT);
        status(SQLITE_DBSTATUS_CACHE_MISS);
        status(SQLITE_DBSTATUS_CACHE_WRITE);
        proc_io(&r0, &w0);
        double cpu0 = cpu_seconds();
        for (int done = 0; done < probe; done += batch) commit_batch(probe - done < batch ? probe - done : batch);
        double cpu = cpu_seconds() - cpu0;
        proc_io(&r1, &w1);
        int hits = status(SQLITE_DBSTATUS_CACHE_HIT), misses = status(SQLITE_DBSTATUS_CACHE_MISS),
            writes = status(SQLITE_DBSTATUS_CACHE_WRITE);
        printf("%10ld %12.1f %12.2f %12.2f %12.2f %14.0f %14.0f\n", depth, cpu / probe * 1e6, (double)hits / probe,
               (double)misses / probe, (double)writes / probe, (double)(r1 - r0) / probe, (double)(w1 - w0) / probe);
        fflush(stdout);
        if (arg >= argc) break;
    }
    sqlite3_close(db);
    return 0;
}
