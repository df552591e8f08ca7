# Sourced by sanitize.sh and fuzz.sh: the sanitized native configuration,
# build/sanitized. clang with AddressSanitizer and UndefinedBehaviorSanitizer
# and the libFuzzer targets (tests/fuzz, docs/fuzzing.md); every native test
# suite builds and runs in it too. It links dynamically (the sanitizers'
# runtimes cannot be linked statically), and a sanitized process costs 6 to
# 11 times what it does in build/linux (docs/fuzzing.md has the figures).
sanitized_build_dir=build/sanitized

sanitized_configure() {
  [ -f "$sanitized_build_dir/build.ninja" ] && return
  CC=clang CXX=clang++ meson setup "$sanitized_build_dir" --werror -Dfuzzing=true \
    -Db_sanitize=address,undefined -Db_lundef=false -Doptimization=1 >/dev/null
}
