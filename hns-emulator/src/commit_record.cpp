#include "commit_record.hpp"

#include "state_files.hpp"
#include "store_layout.hpp"
#include "wincni/hns/schema/json_io.hpp"

namespace wincni::hns::emulator {
namespace {

std::string directory_of(const std::string& path) {
  auto slash = path.find_last_of('/');
  return slash == std::string::npos ? std::string() : path.substr(0, slash);
}

std::string record_path(const std::string& directory) { return directory + "/" + layout::kCommitFile; }

constexpr std::string_view kind_name(FileChange::Kind kind) {
  switch (kind) {
    case FileChange::Kind::Write:
      return "write";
    case FileChange::Kind::CreateEmpty:
      return "create";
    case FileChange::Kind::Remove:
      return "remove";
  }
  return "";
}

}  // namespace

void CommitRecord::write(std::string path, std::string content) {
  changes_.push_back({FileChange::Kind::Write, std::move(path), std::move(content)});
}
void CommitRecord::create_empty(std::string path) {
  changes_.push_back({FileChange::Kind::CreateEmpty, std::move(path), {}});
}
void CommitRecord::remove(std::string path) { changes_.push_back({FileChange::Kind::Remove, std::move(path), {}}); }

std::string CommitRecord::dump() const {
  Json changes = Json::array();
  for (const auto& change : changes_) {
    Json item = {{"Do", kind_name(change.kind)}, {"Path", change.path}};
    if (change.kind == FileChange::Kind::Write) item["Content"] = change.content;
    changes.push_back(std::move(item));
  }
  return Json{{"Changes", std::move(changes)}}.dump();
}

CommitRecord CommitRecord::parse(const std::string& text, const std::string& path) {
  using namespace json_io;
  CommitRecord record;
  const Json document = parse_object(text, path);
  for (const auto& item : read_array(document, "Changes")) {
    std::string kind = read_string(item, "Do");
    std::string file = read_string(item, "Path");
    if (kind == kind_name(FileChange::Kind::Write)) {
      record.write(std::move(file), read_string(item, "Content"));
    } else if (kind == kind_name(FileChange::Kind::CreateEmpty)) {
      record.create_empty(std::move(file));
    } else {
      record.remove(std::move(file));
    }
  }
  return record;
}

void CommitRecord::apply(const std::string& directory) const {
  for (const auto& change : changes_) {
    std::string path = directory + "/" + change.path;
    switch (change.kind) {
      case FileChange::Kind::Write:
        make_directories(directory_of(path));
        write_file_atomic(path, change.content, Durability::kCached);
        break;
      case FileChange::Kind::CreateEmpty:
        make_directories(directory_of(path));
        create_empty_file(path);
        break;
      case FileChange::Kind::Remove:
        remove_file(path);
        // An index key's directory exists only while an entry holds the key
        // (store_layout.hpp), so that whether a key is taken is one look.
        remove_directory_if_empty(directory_of(path));
        break;
    }
  }
}

void CommitRecord::commit(const std::string& directory) const {
  if (changes_.empty()) return;
  if (changes_.size() == 1 && changes_.front().kind == FileChange::Kind::Write) {
    std::string path = directory + "/" + changes_.front().path;
    make_directories(directory_of(path));
    write_file_atomic(path, changes_.front().content);
    return;
  }
  write_file_atomic(record_path(directory), dump());
  apply(directory);
  remove_file(record_path(directory));
}

bool CommitRecord::pending(const std::string& directory) { return read_file(record_path(directory)).has_value(); }

bool CommitRecord::recover(const std::string& directory) {
  auto text = read_file(record_path(directory));
  if (!text) return false;
  parse(*text, record_path(directory)).apply(directory);
  remove_file(record_path(directory));
  return true;
}

}  // namespace wincni::hns::emulator
