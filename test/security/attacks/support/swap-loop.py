"""Swaps two names in one folder again and again with renameat2(RENAME_EXCHANGE), as code in a
workspace can: a real folder and a symbolic link to outside trade places atomically, so at any instant
one of the names is the folder and the other the link. Prints "ready" once the first swap has been
made, on SIGUSR1 "count N" (the swaps so far: a test samples it to show the race kept running while it
worked), and on SIGTERM the number of swaps, then leaves the names as they were at the start."""
import ctypes
import os
import signal
import sys

AT_FDCWD = -100
RENAME_EXCHANGE = 2

libc = ctypes.CDLL(None, use_errno=True)
if not hasattr(libc, "renameat2"):
    sys.exit("renameat2 is not available in this C library")
a, b = (os.fsencode(p) for p in sys.argv[1:3])
swaps = 0
stop = False


def on_term(_sig, _frame):
    global stop
    stop = True


signal.signal(signal.SIGTERM, on_term)
signal.signal(signal.SIGUSR1, lambda _sig, _frame: print(f"count {swaps}", flush=True))


def swap():
    if libc.renameat2(AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE) != 0:
        err = ctypes.get_errno()
        sys.exit(f"renameat2 failed: {os.strerror(err)}")


# Spinning, this loop takes a whole core for as long as the test runs, and on a busy machine it took
# that core from the app it races. folder-swap-race's CPU-seconds with it at nice 0 and at nice 10,
# run side by side: 16.4 and 12.5 at a load of 22-40, 22.9 and 12.0 at 28-32 (all tests passed). At
# nice 10 it gives way only to processes that want the core, and the test still fails unless it
# swapped between every two of the test's samples.
os.nice(10)
swap()
swaps = 1
print("ready", flush=True)
parent = os.getppid()
while not stop:
    swap()
    swaps += 1
    # Never outlive the test that started us (a killed runner would leave us spinning).
    if swaps % 4096 == 0 and os.getppid() != parent:
        stop = True
if swaps % 2 == 1:
    swap()
    swaps += 1
print(f"swaps {swaps}", flush=True)
