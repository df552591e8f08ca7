#include "error_texts.hpp"

#include <array>
#include <string_view>
#include <utility>

namespace wincni::hns::emulator {
namespace {

// The Windows texts where they are known (the Win32 ones, and
// HCN_E_INVALID_POLICY as posted in calico issue 8465, in traditional
// characters); our own translations for the HCN codes whose localised text is
// not public. Every other code gets a generic sentence: what matters is that
// no English word survives.
constexpr std::array<std::pair<HResult, std::string_view>, 8> kChineseTexts{{
    {hr::kElementNotFound, "找不到元素。"},
    {hr::kInvalidArg, "参数错误。"},
    {hr::kAlreadyExists, "当文件已存在时，无法创建该文件。"},
    {hr::kNetworkNotFound, "找不到网络。"},
    {hr::kEndpointNotFound, "找不到终结点。"},
    {hr::kInvalidPolicy, "所提供的原則設定無效或缺少參數。"},
    {hr::kNetworkAlreadyExists, "已存在具有此名称的网络。"},
    {hr::kInvalidJsonReference, "JSON 文档中的参考无效。"},
}};

constexpr std::string_view kChineseGeneric = "无法完成请求的操作。";

}  // namespace

std::string hns_error_text(HResult code, ErrorTextLanguage language) {
  if (language == ErrorTextLanguage::English) return hresult_message(code) + " ";
  for (const auto& [known, text] : kChineseTexts) {
    if (known == code) return std::string(text) + " ";
  }
  return std::string(kChineseGeneric) + " ";
}

}  // namespace wincni::hns::emulator
