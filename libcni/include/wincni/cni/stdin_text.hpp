#pragma once
// The config on stdin as UTF-8, whatever encoding the script that wrote it
// used. PowerShell, which the Windows nodes' set-up scripts are written in,
// writes UTF-8 with a byte-order mark (Windows PowerShell 5's -Encoding UTF8)
// or UTF-16 (its default for redirection); Go's JSON decoder refuses both
// ("invalid character 'ï' looking for beginning of value",
// MicrosoftDocs/Virtualization-Documentation#1240), so the kube-proxy
// source-VIP scripts and hand-run plugins fail on them.
//
// A UTF-8 BOM is dropped; UTF-16 with a BOM (either byte order) is
// converted. Anything else is returned unchanged. hnsctl explain reads the
// configs it is given the same way, so that it reads what a plugin reads.

#include <string>

namespace wincni::cni {

// cni::Error 6 (decoding failure) for UTF-16 that is cut in half or has an
// unpaired surrogate.
std::string stdin_as_utf8(std::string bytes);

}  // namespace wincni::cni
