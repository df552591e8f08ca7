#pragma once
// What a garble fault (faults.hpp) makes of an answer: something no client
// can read into the schema, the same every time, so that a test knows what
// the client had in hand.
//
//   Text   the answer without its last character. Every answer HNS gives is
//          a JSON object or array, so cut short it is never JSON.
//   Shape  the answer's outline with every value of the wrong type: a string
//          becomes an array holding it, a number or a boolean its text as a
//          string, an empty array [null]; null stays null.
//
// Which answer: HCN's output (Result, Properties) when the call has one; a
// call that has none (create, open, modify, delete) answers S_OK together
// with an error record garbled the same way, which a client must take for a
// failure (hcsshim's rule) it cannot read. HNSCall: Text cuts the envelope;
// Shape garbles its Output, and the envelope itself when it has no Output
// (a DELETE's).

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "faults.hpp"

namespace wincni::hns::emulator {

std::string garbled_text(std::string_view answer);
nlohmann::json garbled_shape(const nlohmann::json& value);
// `answer` is JSON text.
std::string garbled(std::string_view answer, Garbling how);

}  // namespace wincni::hns::emulator
