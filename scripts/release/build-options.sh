# The release's compiler and linker settings, sourced by scripts/release.sh
# (the Windows release) and scripts/bench.sh (the native binaries it
# measures), so that the benchmark measures what is shipped.
#
# -Os: the .exe files are 15% smaller than at -O2 (host-local.exe 1.67 ->
# 1.50 MB, win-bridge.exe 2.62 -> 2.21 MB) and no slower: a plugin's time is
# its start, its system calls and HNS (docs/benchmarks.md, section 6). Not
# buildtype=release's -O3: with GCC 12 it turns fmt 9's fill specifier into
# a false stringop-overflow warning, and warnings are errors.
# Each function and object in a section of its own, and the sections nothing
# reaches left out: a few KB per .exe (host-local.exe 1.51 -> 1.50 MB), and
# in the native static binaries a quarter (win-bridge 4.6 -> 3.5 MB, its
# peak RSS 2.8 -> 2.2 MiB: fewer pages of code mapped around the ones run).
# File by file, not the unity builds of the tests: a unit's static
# initialisers are one function that keeps every object its eight files
# define, and a unity release made wincni-install.exe 1.36 -> 2.16 MB.
# (These figures are from before the plugins shed the C++ runtime's
# locales: win-bridge.exe is 1.38 MB now, docs/benchmarks.md section 6.)
# Passed each time, so that a build folder made with other settings takes these.
release_sections="-ffunction-sections -fdata-sections"
release_options=(-Doptimization=s -Ddebug=false -Db_ndebug=true -Dc_args="$release_sections"
  -Dcpp_args="$release_sections" -Dcpp_link_args=-Wl,--gc-sections -Dunity=off)
