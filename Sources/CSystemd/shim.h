#ifndef WATCHPAIR_CSYSTEMD_SHIM_H
#define WATCHPAIR_CSYSTEMD_SHIM_H

/* Without this, sd-journal.h turns sd_journal_sendv into a macro that adds the C caller's
   CODE_FILE/CODE_LINE; the Swift side sets its own CODE_* fields. */
#define SD_JOURNAL_SUPPRESS_LOCATION 1

#include <sys/uio.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

#endif
