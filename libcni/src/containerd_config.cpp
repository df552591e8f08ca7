#include "wincni/cni/containerd_config.hpp"

#include <algorithm>
#include <charconv>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "toml_entries.hpp"

namespace wincni::cni {

namespace {

using toml::KeyPath;
using toml::ValueKind;

std::string program_files(const Environment& env) { return env.get_or("ProgramFiles", "C:\\Program Files"); }

// The file as this reader sees it: its version, the cni table's path, and
// the three keys' entries when present.
struct CniTable {
  toml::Document document;
  int version = 1;
  KeyPath section;
  const toml::Entry* bin_dir = nullptr;
  const toml::Entry* bin_dirs = nullptr;
  const toml::Entry* conf_dir = nullptr;
};

KeyPath section_for(int version) {
  switch (version) {
    case 3:
      return {"plugins", "io.containerd.cri.v1.runtime", "cni"};
    case 2:
      return {"plugins", "io.containerd.grpc.v1.cri", "cni"};
    default:
      return {"plugins", "cri", "cni"};
  }
}

const toml::Entry* find_entry(const toml::Document& document, const KeyPath& path) {
  // TOML forbids a key twice; should a file have it, containerd's reader
  // refuses the file, and so does this one below.
  const toml::Entry* found = nullptr;
  for (const toml::Entry& entry : document.entries) {
    if (entry.path != path) continue;
    if (found != nullptr) {
      throw ContainerdConfigError(
          fmt::format("line {}: {} is set twice (also on line {})", entry.line, toml::key_text(path), found->line));
    }
    found = &entry;
  }
  return found;
}

CniTable read_table(std::string_view config_toml) {
  CniTable table;
  try {
    table.document = toml::scan(config_toml);
  } catch (const toml::SyntaxError& error) {
    throw ContainerdConfigError(error.what());
  }
  if (const toml::Entry* version = find_entry(table.document, {"version"})) {
    int value = 0;
    const auto [end, status] =
        std::from_chars(version->scalar.data(), version->scalar.data() + version->scalar.size(), value);
    if (version->kind != ValueKind::Other || status != std::errc() ||
        end != version->scalar.data() + version->scalar.size() || value < 1 || value > 3) {
      throw ContainerdConfigError(fmt::format(
          "line {}: version {}: containerd's config versions are 1, 2 (containerd 1.x) and 3 (containerd 2.x)",
          version->line, config_toml.substr(version->value_begin, version->value_end - version->value_begin)));
    }
    table.version = value;
  }
  table.section = section_for(table.version);
  const auto key = [&table](const char* name, ValueKind kind, const char* what) {
    KeyPath path = table.section;
    path.push_back(name);
    const toml::Entry* entry = find_entry(table.document, path);
    if (entry != nullptr && entry->kind != kind) {
      throw ContainerdConfigError(fmt::format("line {}: {} is not {}", entry->line, toml::key_text(path), what));
    }
    return entry;
  };
  table.bin_dir = key("bin_dir", ValueKind::String, "a string");
  table.conf_dir = key("conf_dir", ValueKind::String, "a string");
  // Versions 1 and 2 are containerd 1.x's, which has no bin_dirs.
  if (table.version == 3) table.bin_dirs = key("bin_dirs", ValueKind::StringArray, "an array of strings");
  return table;
}

bool has_text(const toml::Entry* entry) { return entry != nullptr && !entry->strings.front().empty(); }

std::string line_ending(std::string_view text) { return text.find("\r\n") != std::string_view::npos ? "\r\n" : "\n"; }

// The blanks a line starts with, for the line holding byte `at`.
std::string indentation_at(std::string_view text, std::size_t at) {
  const std::size_t newline = text.rfind('\n', at == 0 ? 0 : at - 1);
  std::size_t start = newline == std::string_view::npos ? 0 : newline + 1;
  if (at == 0) start = 0;
  std::size_t end = start;
  while (end < text.size() && (text[end] == ' ' || text[end] == '\t')) ++end;
  return std::string(text.substr(start, end - start));
}

struct Edit {
  std::size_t begin;
  std::size_t end;
  std::string text;
};

std::string array_literal(const std::vector<std::string>& items) {
  std::vector<std::string> quoted;
  for (const std::string& item : items) quoted.push_back(toml::string_literal(item));
  return fmt::format("[{}]", fmt::join(quoted, ", "));
}

std::string normalized(std::string_view path, PathFlavor flavor) {
  std::string out(path);
  if (flavor == PathFlavor::kWindows) {
    std::replace(out.begin(), out.end(), '/', '\\');
    std::transform(out.begin(), out.end(), out.begin(),
                   [](char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; });
  }
  const char separator = flavor == PathFlavor::kWindows ? '\\' : '/';
  std::string collapsed;
  for (char c : out) {
    if (c == separator && !collapsed.empty() && collapsed.back() == separator && collapsed.size() > 1) continue;
    collapsed += c;
  }
  // "C:\" and "/" keep their separator; any other trailing one goes.
  while (collapsed.size() > 1 && collapsed.back() == separator &&
         !(flavor == PathFlavor::kWindows && collapsed.size() == 3 && collapsed[1] == ':')) {
    collapsed.pop_back();
  }
  return collapsed;
}

}  // namespace

ContainerdFolders containerd_builtin_folders(const Environment& env) {
  if (kNativePathFlavor == PathFlavor::kWindows) {
    const std::string root = program_files(env) + "\\containerd\\cni";
    return {{root + "\\bin"}, root + "\\conf"};
  }
  return {{"/opt/cni/bin"}, "/etc/cni/net.d"};
}

std::string containerd_default_config_file(const Environment& env) {
  if (kNativePathFlavor == PathFlavor::kWindows) return program_files(env) + "\\containerd\\config.toml";
  return "";
}

ContainerdCniSettings read_containerd_cni_settings(std::string_view config_toml, const ContainerdFolders& builtin) {
  const CniTable table = read_table(config_toml);
  ContainerdCniSettings settings;
  settings.config_version = table.version;
  settings.section = toml::key_text(table.section);
  settings.folders = builtin;
  // containerd moves a bin_dir that is set into bin_dirs (and refuses to
  // start when a bin_dirs of its own is set as well).
  if (has_text(table.bin_dir)) {
    settings.folders.bin_dirs = {table.bin_dir->strings.front()};
    settings.bin_dirs_from_file = true;
  } else if (table.bin_dirs != nullptr) {
    settings.folders.bin_dirs = table.bin_dirs->strings;
    settings.bin_dirs_from_file = true;
  }
  if (table.conf_dir != nullptr && has_text(table.conf_dir)) {
    settings.folders.conf_dir = table.conf_dir->strings.front();
    settings.conf_dir_from_file = true;
  }
  return settings;
}

std::string patch_containerd_cni_folders(std::string_view config_toml, const std::string& bin_dir,
                                         const std::string& conf_dir) {
  const CniTable table = read_table(config_toml);
  const std::string eol = line_ending(config_toml);
  std::vector<Edit> edits;
  std::vector<std::string> added;  // "key = value" lines the table lacks
  const auto set = [&](const toml::Entry* entry, const char* key, const std::string& value) {
    if (entry != nullptr) {
      edits.push_back({entry->value_begin, entry->value_end, value});
    } else {
      added.push_back(fmt::format("{} = {}", key, value));
    }
  };

  // bin_dirs came with containerd 2.1; 2.0 writes version 3 files too and
  // knows only bin_dir. A file with bin_dirs was written for 2.1 or later:
  // ours goes first there. Otherwise bin_dir, which 2.1 moves into bin_dirs.
  if (table.version == 3 && table.bin_dirs != nullptr) {
    std::vector<std::string> dirs{bin_dir};
    const std::vector<std::string> kept =
        has_text(table.bin_dir) ? std::vector<std::string>{table.bin_dir->strings.front()} : table.bin_dirs->strings;
    for (const std::string& dir : kept) {
      if (!same_folder(dir, bin_dir)) dirs.push_back(dir);
    }
    set(table.bin_dirs, "bin_dirs", array_literal(dirs));
    if (has_text(table.bin_dir)) edits.push_back({table.bin_dir->value_begin, table.bin_dir->value_end, "''"});
  } else {
    set(table.bin_dir, "bin_dir", toml::string_literal(bin_dir));
  }
  if (!conf_dir.empty()) set(table.conf_dir, "conf_dir", toml::string_literal(conf_dir));

  std::string patched(config_toml);
  if (!added.empty()) {
    const auto header = std::find_if(table.document.tables.begin(), table.document.tables.end(),
                                     [&table](const toml::Table& t) { return !t.array && t.path == table.section; });
    if (header != table.document.tables.end()) {
      // Under the header, indented as the table's first key is (or as the header).
      const auto first_key =
          std::find_if(table.document.entries.begin(), table.document.entries.end(), [&](const toml::Entry& entry) {
            return entry.value_begin >= header->body_begin && entry.path.size() == table.section.size() + 1 &&
                   std::equal(table.section.begin(), table.section.end(), entry.path.begin());
          });
      const std::string indent =
          first_key != table.document.entries.end()
              ? indentation_at(config_toml, first_key->value_begin)
              : indentation_at(config_toml, header->body_begin == 0 ? 0 : header->body_begin - 1);
      std::string lines;
      for (const std::string& line : added) lines += indent + line + eol;
      std::string prefix;
      // A header on the file's last line, without a line ending.
      if (header->body_begin == config_toml.size() && !config_toml.ends_with('\n')) prefix = eol;
      edits.push_back({header->body_begin, header->body_begin, prefix + lines});
    } else {
      const bool defined_otherwise =
          std::any_of(table.document.entries.begin(), table.document.entries.end(), [&](const toml::Entry& entry) {
            return entry.path.size() >= table.section.size() &&
                   std::equal(table.section.begin(), table.section.end(), entry.path.begin());
          });
      if (defined_otherwise) {
        throw ContainerdConfigError(fmt::format(
            "{} is written with dotted keys or as an inline table, which wincni does not edit: set {} there by hand",
            toml::key_text(table.section), fmt::join(added, " and ")));
      }
      std::string block = config_toml.empty() || config_toml.ends_with('\n') ? "" : eol;
      block += eol + "[" + toml::key_text(table.section) + "]" + eol;
      for (const std::string& line : added) block += "  " + line + eol;
      edits.push_back({config_toml.size(), config_toml.size(), block});
    }
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.begin > b.begin; });
  for (const Edit& edit : edits) patched.replace(edit.begin, edit.end - edit.begin, edit.text);
  return patched;
}

bool same_folder(std::string_view a, std::string_view b, PathFlavor flavor) {
  std::string first = normalized(a, flavor);
  std::string second = normalized(b, flavor);
  if (flavor == PathFlavor::kWindows) {
    // "\etc\cni\net.d", as the plugins' defaults are written, is on
    // whichever drive the reader runs from: the other's drive is taken.
    const auto drive_relative = [](const std::string& path) {
      return path.starts_with('\\') && !path.starts_with("\\\\");
    };
    const auto has_drive = [](const std::string& path) { return path.size() >= 2 && path[1] == ':'; };
    if (drive_relative(first) && has_drive(second)) second.erase(0, 2);
    if (drive_relative(second) && has_drive(first)) first.erase(0, 2);
  }
  return first == second;
}

std::vector<std::string> containerd_folder_mismatches(const ContainerdCniSettings& settings, const std::string& bin_dir,
                                                      const std::string& conf_dir) {
  std::vector<std::string> mismatches;
  const auto where = [&settings](bool from_file, const char* key) {
    return from_file ? fmt::format("{}.{}", settings.section, key) : std::string("containerd's built-in default");
  };
  const std::vector<std::string>& dirs = settings.folders.bin_dirs;
  if (std::none_of(dirs.begin(), dirs.end(),
                   [&bin_dir](const std::string& dir) { return same_folder(dir, bin_dir); })) {
    mismatches.push_back(fmt::format(
        "containerd looks for CNI plugins in {} ({}), not in {}",
        dirs.empty() ? "no folder" : fmt::format("{}", fmt::join(dirs, ", ")),
        where(settings.bin_dirs_from_file, settings.config_version == 3 ? "bin_dirs" : "bin_dir"), bin_dir));
  }
  if (!conf_dir.empty() && !same_folder(settings.folders.conf_dir, conf_dir)) {
    mismatches.push_back(fmt::format("containerd reads CNI configs from {} ({}), not from {}",
                                     settings.folders.conf_dir, where(settings.conf_dir_from_file, "conf_dir"),
                                     conf_dir));
  }
  return mismatches;
}

}  // namespace wincni::cni
