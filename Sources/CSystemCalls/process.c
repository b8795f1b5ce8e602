// What every layer asks of the process: its environment switches (one rule for all of them), the
// flag a SIGINT or SIGTERM handler sets, and how many threads it has (before a fork without exec).
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "CSystemCalls.h"

int stackplay_switch_on(const char *name) {
    const char *value = getenv(name);
    return value != NULL && value[0] != '\0' && strcmp(value, "0") != 0;
}

// Written by signal handlers and read by the loop they interrupt: the one type C promises is
// read and written whole with a signal between any two instructions (C11 7.14.1.1).
static volatile sig_atomic_t stackplay_interruption_signal;
static volatile sig_atomic_t stackplay_signalled_signal;

int stackplay_interruption(void) { return stackplay_interruption_signal; }
void stackplay_set_interruption(int signal) { stackplay_interruption_signal = signal; }
int stackplay_signalled(void) { return stackplay_signalled_signal; }
void stackplay_set_signalled(int signal) { stackplay_signalled_signal = signal; }

int stackplay_thread_count(void) {
    int fd = open("/proc/self/status", O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    char text[4096];
    size_t used = 0;
    ssize_t got;
    while (used < sizeof text - 1 && (got = read(fd, text + used, sizeof text - 1 - used)) != 0) {
        if (got < 0) {
            close(fd);
            return -1;
        }
        used += (size_t)got;
    }
    close(fd);
    text[used] = '\0';
    const char *line = strstr(text, "\nThreads:");
    if (!line) return -1;
    return atoi(line + strlen("\nThreads:"));
}
