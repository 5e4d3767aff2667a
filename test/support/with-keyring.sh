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

for tool in dbus-run-session gnome-keyring-daemon; do
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
  printf %s test | XDG_DATA_HOME="$OI_TEST_KEYRING_HOME" gnome-keyring-daemon --unlock --components=secrets >/dev/null
  unset OI_TEST_KEYRING_HOME
  exec "$@"
' with-keyring "$@" || status=$?
exit "$status"
