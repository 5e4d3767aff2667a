"""Fresh ipykernels without their import cost, for the export re-run check (rerun-worker.ts).

A kernel's start is mostly imports (ipykernel, IPython, zmq, tornado: about a CPU-second), and the
check starts one per notebook. This process imports them once, creates nothing (no zmq context, no
event loop, no kernel), and forks a child per kernel asked for: the child is a kernel that never saw
another notebook's code, as a fresh process would be. Asked through a Unix socket by the client the
kernelspec runs, which passes its stdin/stdout/stderr, folder, environment and
connection file (kernel-zygote-client.py); the client stands for the kernel towards jupyter_client
(signals are forwarded, its exit status is the kernel's), and a kernel whose client goes away is killed.

usage: python kernel-zygote.py SOCKET_PATH   (ends when its stdin closes)
"""
import json
import os
import selectors
import signal
import socket
import sys

sys.modules['debugpy'] = None  # as jupyter-home.ts's KERNEL_LAUNCHER: no debugger server import
from ipykernel import kernelapp  # noqa: E402  the imports each kernel would pay for



def serve(path):
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(64)
    sel = selectors.DefaultSelector()
    sel.register(server, selectors.EVENT_READ, 'accept')
    sel.register(sys.stdin, selectors.EVENT_READ, 'stdin')
    kernels = {}  # pid -> client socket
    # SIGCHLD wakes the selector so a finished kernel is reported at once.
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    sel.register(wake_r, selectors.EVENT_READ, 'child')
    sys.stdout.write('ready\n')
    sys.stdout.flush()
    while True:
        for key, _ in sel.select():
            what = key.data
            if what == 'stdin':
                if not os.read(sys.stdin.fileno(), 4096):
                    for pid in kernels:
                        _kill(pid)
                    return
            elif what == 'accept':
                conn, _ = server.accept()
                pid = _start(conn, server)
                if pid is not None:
                    kernels[pid] = conn
                    sel.register(conn, selectors.EVENT_READ, ('client', pid))
            elif what == 'child':
                os.read(wake_r, 4096)
                while True:
                    try:
                        pid, status = os.waitpid(-1, os.WNOHANG)
                    except ChildProcessError:
                        break
                    if pid == 0:
                        break
                    conn = kernels.pop(pid, None)
                    if conn is not None:
                        sel.unregister(conn)
                        try:
                            conn.sendall(b'%d\n' % os.waitstatus_to_exitcode(status))
                        except OSError:
                            pass
                        conn.close()
            else:
                # The client sent nothing more or went away: if away, its kernel goes too.
                _, pid = what
                conn = key.fileobj
                try:
                    data = conn.recv(64)
                except OSError:
                    data = b''
                if not data:
                    sel.unregister(conn)
                    conn.close()
                    kernels.pop(pid, None)
                    _kill(pid)


def _kill(pid):
    try:
        os.killpg(pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _start(conn, server):
    msg, fds, _flags, _addr = socket.recv_fds(conn, 1 << 20, 3)
    while not msg.endswith(b'\n'):
        more = conn.recv(1 << 20)
        if not more:
            return None
        msg += more
    request = json.loads(msg)
    pid = os.fork()
    if pid:
        for fd in fds:
            os.close(fd)
        conn.sendall(b'%d\n' % pid)
        return pid
    # The kernel: a session of its own, the client's stdio, folder and environment, nothing of ours.
    try:
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        server.close()
        conn.close()
        os.setsid()
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
            os.close(fd)
        os.chdir(request['cwd'])
        os.environ.clear()
        os.environ.update(request['env'])
        # As `python -m ipykernel_launcher` starts: the folder's full path first (here it was ours).
        sys.path[0] = os.getcwd()
        sys.argv = ['ipykernel_launcher', '-f', request['connection_file']]
        # Read from the environment when ipykernel was imported (here, before any request): the
        # kernel's parent as jupyter_client named it, so the kernel knows it was started by a client.
        parent = os.environ.get('JPY_PARENT_PID')
        if parent:
            sys.argv.append('--IPKernelApp.parent_handle=' + parent)
        kernelapp.launch_new_instance()
        code = 0
    except SystemExit as e:
        code = e.code if isinstance(e.code, int) else 0
    except BaseException:
        import traceback
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


if __name__ == '__main__':
    serve(sys.argv[1])
