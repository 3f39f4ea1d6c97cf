#include <signal.h>
#include <sys/signalfd.h>
#include "CWaylandShims.h"

static void termination_set(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGTERM);
    sigaddset(set, SIGINT);
}

int meridian_block_termination_signals(void) {
    sigset_t set;
    termination_set(&set);
    return sigprocmask(SIG_BLOCK, &set, NULL);
}

int meridian_termination_signal_fd(void) {
    sigset_t set;
    termination_set(&set);
    if (sigprocmask(SIG_BLOCK, &set, NULL) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}
