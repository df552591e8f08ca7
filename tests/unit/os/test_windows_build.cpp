#include <doctest/doctest.h>

#include "wincni/os/windows_build.hpp"

using wincni::os::WindowsBuild;

TEST_CASE("a Windows build reads as major.minor.build[.revision], and nothing else does") {
  const auto full = WindowsBuild::parse("10.0.20348.2582");
  REQUIRE(full);
  CHECK(full->build == 20348);
  CHECK(full->revision == 2582);
  CHECK(full->str() == "10.0.20348.2582");
  CHECK(WindowsBuild::parse("10.0.17763")->revision == 0);
  for (const char* bad : {"", "10", "10.0", "10.0.20348.2582.1", "10.0.x", "10..0.1", "10.0.1.", " 10.0.1"}) {
    CAPTURE(bad);
    CHECK_FALSE(WindowsBuild::parse(bad));
  }
}

TEST_CASE("the build of the system the test runs on: Windows (or Wine) says one, other systems none") {
#ifdef _WIN32
  const auto build = wincni::os::windows_build();
  REQUIRE(build);
  CHECK(build->major >= 6);
  CHECK(build->build > 0);
#else
  CHECK_FALSE(wincni::os::windows_build());
#endif
}
