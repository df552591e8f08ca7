# Sourced by build.sh and test.sh: the Wine environment of the Windows build
# (tests/windows/meson.build gives meson test the same values). The prefix is
# inside the build tree, created once; mono and gecko are never installed, and
# Wine's own diagnostics stay quiet.
export WINEPREFIX="$PWD/build/windows/wineprefix"
export WINEDEBUG=-all
export WINEDLLOVERRIDES="mscoree,mshtml="

wine_prefix_ready() {
  [ -f "$WINEPREFIX/system.reg" ] && return 0
  mkdir -p "$WINEPREFIX"
  echo "wine: creating the prefix $WINEPREFIX" >&2
  wineboot --init >/dev/null 2>&1
  wineserver --wait
}

# One wineserver for a whole test run instead of one per test program. A server
# left by configure's sanity check exits a few seconds after its last client;
# the persistent one replaces it.
wine_server_persistent() {
  if ! wineserver --persistent 2>/dev/null; then
    timeout 10 wineserver --wait || true
    wineserver --persistent 2>/dev/null || true
  fi
  # The first Wine program of a server session starts Wine's background
  # services, which inherit its output handles and outlive it: a test that
  # reads its child's output to the end would wait for them. Start them here,
  # with nothing to inherit.
  wine cmd /c exit </dev/null >/dev/null 2>&1 || true
}

wine_server_stop() {
  wineserver --kill 2>/dev/null || true
}
