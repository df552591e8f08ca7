#pragma once
// An answer HNS gave to a call that succeeded, together with what it takes
// to complain about it. HNS should only ever answer what its schema says;
// when it does not (a reply cut short, a field of another type), a parser's
// exception must not escape the client as an "internal error" that names no
// call: every read here that fails raises HnsError(HCN_E_INVALID_JSON)
// naming the operation and the object and quoting the answer, cut to
// kQuotedAnswerBytes.

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "wincni/hns/schema/schema_error.hpp"

namespace wincni::hns {

// Enough to recognise an answer by, short enough for a CNI error message.
inline constexpr std::size_t kQuotedAnswerBytes = 512;

// The HNS text of an HnsError about an answer that cannot be read:
// `problem`, then `answer`, cut to kQuotedAnswerBytes on a character boundary.
std::string unreadable_answer_text(std::string_view problem, std::string_view answer);

class HnsAnswer {
 public:
  using Json = nlohmann::json;

  // `value` is what was taken from `text`: all of it, or the Output of v1's
  // envelope.
  HnsAnswer(Json value, std::string text, std::string operation, std::string object);
  // The JSON `text` holds; raises when it holds none.
  static HnsAnswer parse(std::string text, std::string operation, std::string object);

  const Json& value() const { return value_; }

  // What `read(value())` returns; the exceptions of a reading that does not
  // fit (SchemaError, nlohmann's) raise as an unreadable answer.
  template <class Read>
  auto read_with(Read&& read) const -> decltype(read(std::declval<const Json&>())) {
    try {
      return read(value_);
    } catch (const SchemaError& error) {
      raise_unreadable(error.what());
    } catch (const nlohmann::json::exception& error) {
      raise_unreadable(error.what());
    }
  }

  template <class T>
  T read() const {
    return read_with([](const Json& value) { return T::from_json(value); });
  }

  // Each item of a list answer. A null (no Output) is an empty list, as Go's
  // decoder in hcsshim reads it.
  template <class T>
  std::vector<T> read_list() const {
    return read_with([](const Json& value) {
      std::vector<T> items;
      if (value.is_null()) return items;
      if (!value.is_array()) throw SchemaError(SchemaError::Kind::Type, "answer", "expected a list");
      for (std::size_t i = 0; i < value.size(); ++i) items.push_back(read_item<T>(value[i], i));
      return items;
    });
  }

  [[noreturn]] void raise_unreadable(std::string_view problem) const;

 private:
  // The item's index joins the field SchemaError names.
  template <class T>
  static T read_item(const Json& item, std::size_t index) {
    try {
      return T::from_json(item);
    } catch (const SchemaError& error) {
      throw SchemaError(error.kind(), "[" + std::to_string(index) + "]." + error.field(), error.problem());
    }
  }

  Json value_;
  std::string text_;
  std::string operation_;
  std::string object_;
};

}  // namespace wincni::hns
