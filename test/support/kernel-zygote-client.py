"""The kernelspec's command when kernels come from kernel-zygote.py: asks it for a kernel, passing this
process's stdin/stdout/stderr, folder, environment and connection file, then stands for the kernel:
signals jupyter_client sends are forwarded, and this exits with the kernel's status. Started with
`python -I -S`: only the standard library's socket, json, os and signal are needed.

usage: python -I -S kernel-zygote-client.py SOCKET_PATH CONNECTION_FILE
"""
import json, os, signal, socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
s.connect(sys.argv[1])
request = {'connection_file': sys.argv[2], 'cwd': os.getcwd(), 'env': dict(os.environ)}
socket.send_fds(s, [json.dumps(request).encode() + b'\n'], [0, 1, 2])
f = s.makefile('rb')
pid = int(f.readline())
def forward(signum, _frame):
    try:
        os.kill(pid, signum)
    except ProcessLookupError:
        pass
for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
    signal.signal(signum, forward)
line = f.readline()
os._exit(int(line) if line.strip() else 1)
