#pragma once
// The CNI_* variables of one invocation, read and validated the way Go's skel
// (containernetworking/cni HEAD) does, so that a runtime gets the same codes
// and messages from our plugins as from the reference ones.

#include <string>
#include <string_view>

#include "wincni/cni/env.hpp"

namespace wincni::cni {

struct CniInvocation {
  std::string command;       // CNI_COMMAND as given (may be unknown)
  std::string container_id;  // CNI_CONTAINERID
  std::string netns;         // CNI_NETNS
  std::string ifname;        // CNI_IFNAME
  std::string args;          // CNI_ARGS
  std::string path;          // CNI_PATH
};

// Reads the variables and applies the per-command requirement table:
//   ADD, CHECK   CONTAINERID NETNS IFNAME PATH
//   DEL          CONTAINERID IFNAME PATH
//   GC, STATUS   PATH
//   VERSION and unknown commands: only COMMAND
// An empty value counts as missing. In table order, a present required
// CONTAINERID or IFNAME is validated as soon as it is reached (the first bad
// one throws); missing ones are then reported together:
// Error 4 "required env variables [CNI_NETNS,CNI_PATH] missing".
CniInvocation read_cni_invocation(const Environment& env);

// Error 4 "invalid characters in containerID" (details: the id) unless it
// matches ^[a-zA-Z0-9][a-zA-Z0-9_.\-]*$; Error 3 "missing containerID" when
// empty.
void validate_container_id(std::string_view id);

// Linux's rules, which runtimes apply everywhere: 1..15 bytes, not "." or
// "..", no '/', ':' or whitespace. Error 4 with Go's messages.
void validate_interface_name(std::string_view ifname);

// True when `name` matches ^[a-zA-Z0-9][a-zA-Z0-9_.\-]*$, the rule shared by
// container IDs and network names.
bool is_valid_cni_name(std::string_view name);

}  // namespace wincni::cni
