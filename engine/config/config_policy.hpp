#pragma once
// Reading a config's own HNS policies: declared in the public
// wincni/engine/policy_json.hpp, which flannel uses too.

#include "wincni/engine/policy_json.hpp"
