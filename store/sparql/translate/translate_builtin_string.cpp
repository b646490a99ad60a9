// SPARQL string functions (§17.4.3) and STR, LANG, LANGMATCHES, STRLANG, REGEX, REPLACE.
// A statically non-string argument is a type error (NULL); strings keep their language tag
// where the spec says so, which the engine's quarry_* functions handle (lang strings are
// BLOB "text\0lang"). A constant regular expression is checked here, so a bad pattern is a
// clear compile error instead of a silent non-match.
#include <fmt/format.h>
#include <unicode/regex.h>

#include "store/sparql/translate/builtin_helpers.h"
#include "store/sparql/translate/regex_flags.h"

namespace quarry::sparql::translate {
namespace {

Result<void> CheckRegex(const BuiltinCall& call, size_t pattern_at, size_t flags_at) {
  const Literal* pattern = ConstantLiteral(call.args.at(pattern_at));
  const Literal* flags =
      call.args.size() > flags_at ? ConstantLiteral(call.args[flags_at]) : nullptr;
  const bool flags_known = call.args.size() <= flags_at || flags;
  const std::string name(BuiltinName(call.function));
  std::optional<uint32_t> icu_flags = 0;
  if (flags) {
    icu_flags = RegexFlags(flags->lexical);
    if (!icu_flags) {
      return Error(Errc::kParse, fmt::format("{}: unknown flag in \"{}\" (flags are i, s, m, x, q)",
                                             name, flags->lexical));
    }
  }
  if (!pattern || !flags_known) return Ok();
  UErrorCode status = U_ZERO_ERROR;
  UParseError where;
  std::unique_ptr<icu::RegexPattern> compiled(icu::RegexPattern::compile(
      icu::UnicodeString::fromUTF8(pattern->lexical), *icu_flags, where, status));
  if (U_FAILURE(status)) {
    return Error(Errc::kParse,
                 fmt::format("{}: invalid regular expression \"{}\" ({} at offset {})", name,
                             pattern->lexical, u_errorName(status), where.offset));
  }
  return Ok();
}

std::string Flags(Translator& translator, const std::vector<SqlExpr>& args, size_t at) {
  return args.size() > at ? args[at].sql : translator.BindValue(std::string());
}

bool AllStrings(const std::vector<SqlExpr>& args, size_t count) {
  for (size_t i = 0; i < count; ++i) {
    if (!MayBeString(args.at(i))) return false;
  }
  return true;
}

// Numbers and dates join as their lexical form (Tracker does; SPARQL would refuse them).
SqlExpr Concat(const std::vector<SqlExpr>& args) {
  std::string sql;
  for (const SqlExpr& arg : args) {
    if (IsIriLike(arg)) return TypeError(ValueType::kString);
    const bool raw = MayBeString(arg) || IsNumericTyped(arg);
    sql += (sql.empty() ? "" : ", ") + (raw ? arg.sql : Translator::TextOf(arg));
  }
  return Text(sql.empty() ? "''" : fmt::format("quarry_concat({})", sql));
}

Result<SqlExpr> RegexOrReplace(Translator& translator, const BuiltinCall& call,
                               const std::vector<SqlExpr>& args) {
  if (call.function == Builtin::kRegex) {
    QUARRY_TRY(CheckRegex(call, 1, 2));
    if (!AllStrings(args, 2) || (args.size() > 2 && !MayBeString(args[2]))) {
      return TypeError(ValueType::kBoolean);
    }
    return Boolean(fmt::format("quarry_regex({}, {}, {})", args[0].sql, args[1].sql,
                               Flags(translator, args, 2)));
  }
  QUARRY_TRY(CheckRegex(call, 1, 3));
  if (!AllStrings(args, 3) || (args.size() > 3 && !MayBeString(args[3]))) {
    return TypeError(ValueType::kString);
  }
  return Text(fmt::format("quarry_replace({}, {}, {}, {})", args[0].sql, args[1].sql, args[2].sql,
                          Flags(translator, args, 3)));
}

}  // namespace

Result<SqlExpr> StringBuiltin(Translator& translator, const BuiltinCall& call,
                              const std::vector<SqlExpr>& args) {
  const auto all_strings = [&](size_t count) { return AllStrings(args, count); };
  const auto call2 = [&](std::string_view function) {
    return fmt::format("{}({}, {})", function, args.at(0).sql, args.at(1).sql);
  };
  switch (call.function) {
    case Builtin::kStr:
      if (IsIriText(args.at(0))) return Text(args[0].sql);
      return Text(Translator::TextOf(args.at(0)));
    case Builtin::kLang:
      if (IsIriLike(args.at(0))) return TypeError(ValueType::kString);
      return Text(fmt::format("quarry_lang({})", args[0].sql));
    case Builtin::kLangMatches:
      if (!all_strings(2)) return TypeError(ValueType::kBoolean);
      return Boolean(call2("quarry_langmatches"));
    case Builtin::kStrlen:
      if (!all_strings(1)) return TypeError(ValueType::kInteger);
      return Integer(fmt::format("quarry_strlen({})", args[0].sql));
    case Builtin::kSubstr: {
      if (!all_strings(1) || !MayBeNumeric(args.at(1)) ||
          (args.size() > 2 && !MayBeNumeric(args[2]))) {
        return TypeError(ValueType::kString);
      }
      return Text(args.size() > 2 ? fmt::format("quarry_substr({}, {}, {})", args[0].sql,
                                                args[1].sql, args[2].sql)
                                  : call2("quarry_substr"));
    }
    case Builtin::kUcase:
    case Builtin::kLcase:
    case Builtin::kEncodeForUri: {
      if (!all_strings(1)) return TypeError(ValueType::kString);
      const std::string_view function = call.function == Builtin::kUcase ? "quarry_ucase"
                                        : call.function == Builtin::kLcase
                                            ? "quarry_lcase"
                                            : "quarry_encode_for_uri";
      return Text(fmt::format("{}({})", function, args[0].sql));
    }
    case Builtin::kStrStarts:
      return all_strings(2) ? Boolean(call2("quarry_strstarts")) : TypeError(ValueType::kBoolean);
    case Builtin::kStrEnds:
      return all_strings(2) ? Boolean(call2("quarry_strends")) : TypeError(ValueType::kBoolean);
    case Builtin::kContains:
      return all_strings(2) ? Boolean(call2("quarry_contains")) : TypeError(ValueType::kBoolean);
    case Builtin::kStrBefore:
      return all_strings(2) ? Text(call2("quarry_strbefore")) : TypeError(ValueType::kString);
    case Builtin::kStrAfter:
      return all_strings(2) ? Text(call2("quarry_strafter")) : TypeError(ValueType::kString);
    case Builtin::kStrLang:
      if (!all_strings(2)) return TypeError(ValueType::kLangString);
      return SqlExpr{call2("quarry_strlang"), Kind::kLiteral, ValueType::kLangString};
    case Builtin::kConcat:
      return Concat(args);
    case Builtin::kRegex:
    case Builtin::kReplace:
      return RegexOrReplace(translator, call, args);
    default:
      return Error(Errc::kInternal,
                   fmt::format("{} is no string function", BuiltinName(call.function)));
  }
}

}  // namespace quarry::sparql::translate
