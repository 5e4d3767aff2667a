#!/bin/sh
# Runs its arguments inside a private D-Bus session with an unlocked gnome-keyring, so keychain tests hit
# a real Secret Service without touching the developer's own keyring:
#   bash test/support/with-keyring.sh npx vitest run test/integration/secrets
# The keyring lives in a temporary XDG_DATA_HOME (only the daemon sees it) and is removed afterwards. The
# password only makes gnome-keyring create and unlock the login collection; without --unlock every
# Secret Service call fails with "no result found".
set -eu

# macOS and Windows have their keychain in the user session already; only Linux needs a private one.
if [ "$(uname -s)" != "Linux" ]; then exec "$@"; fi

for tool in dbus-run-session dbus-send gnome-keyring-daemon; do
  if ! command -v "$tool" >/dev/null 2>&1; then
    echo "with-keyring.sh: '$tool' is missing; install the Debian packages dbus, dbus-x11 and gnome-keyring." >&2
    exit 127
  fi
done

OI_TEST_KEYRING_HOME=$(mktemp -d "${TMPDIR:-/tmp}/oi-test-keyring.XXXXXX")
export OI_TEST_KEYRING_HOME
trap 'rm -rf "$OI_TEST_KEYRING_HOME"' EXIT

status=0
dbus-run-session -- sh -c '
  secrets_owned() {
    dbus-send --session --print-reply --dest=org.freedesktop.DBus /org/freedesktop/DBus \
      org.freedesktop.DBus.NameHasOwner string:org.freedesktop.secrets 2>/dev/null | grep -q "boolean true"
  }
  # The daemon runs in the foreground of a loop that starts it again, unlocked, if it ever exits
  # (once in many runs it did, and every keychain test after it failed); each exit is reported.
  (
    starts=0
    while [ "$starts" -lt 20 ]; do
      starts=$((starts + 1))
      printf %s test | XDG_DATA_HOME="$OI_TEST_KEYRING_HOME" gnome-keyring-daemon --foreground --unlock --components=secrets >/dev/null 2>&1 && code=0 || code=$?
      [ -e "$OI_TEST_KEYRING_HOME/.stop" ] && exit 0
      echo "with-keyring.sh: gnome-keyring-daemon exited (status $code); starting it again" >&2
      sleep 0.2
    done
    echo "with-keyring.sh: gnome-keyring-daemon keeps exiting; giving up" >&2
  ) &
  keeper=$!
  # Tests must not start before the daemon owns the name: D-Bus would activate a locked one instead.
  tries=0
  until secrets_owned; do
    tries=$((tries + 1))
    if [ "$tries" -gt 100 ]; then
      echo "with-keyring.sh: gnome-keyring-daemon did not start" >&2
      : > "$OI_TEST_KEYRING_HOME/.stop"
      kill "$keeper" 2>/dev/null || true
      exit 1
    fi
    sleep 0.1
  done
  code=0
  "$@" || code=$?
  : > "$OI_TEST_KEYRING_HOME/.stop"
  kill "$keeper" 2>/dev/null || true
  exit "$code"
' with-keyring "$@" || status=$?
exit "$status"
