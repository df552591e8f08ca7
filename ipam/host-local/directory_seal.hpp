#pragma once
// The mark that nothing in a directory changed since host-local last wrote
// there: the directory's last-write time set to a fixed moment in 2000 that
// only seal() sets. Creating, renaming or removing any entry of a directory
// sets that time to the present, on NTFS as on ext4, so a change made by
// anyone -- the reference host-local, an operator's `rm`, a process killed
// half-way -- breaks the seal. A file system that cannot keep the time
// exactly can never be sealed.

#include <string>

namespace wincni::hostlocal::directory_seal {

bool is_sealed(const std::string& dir);
// False when the file system refuses.
bool seal(const std::string& dir);

}  // namespace wincni::hostlocal::directory_seal
