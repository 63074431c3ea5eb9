// cute/atom/internal/atom_lookup.cc
#include "hlolayout/cute/atom/internal/atom_lookup.h"

#include <algorithm>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "hlolayout/cute/parse.h"
#include "hlolayout/util/edit_distance.h"
#include "hlolayout/util/status_macros.h"

namespace hlolayout::cute::atom_internal {

namespace {

// Names are compared against at most this many instances of each family.
constexpr int64_t kInstancesPerFamily = 20000;

struct Fit {
  const NamePattern* pattern;
  std::string family;
  std::vector<NamePattern::LooseValue> values;
};

// Every value of parameter `param` in `fits`, once: increasing when they
// are all integers, else in the order of the tables; "any unsigned integer"
// when a family takes any.
std::string UnionDomain(const std::vector<Fit>& fits, absl::string_view param,
                        std::vector<std::string>& values) {
  bool any_uint = false;
  for (const Fit& f : fits) {
    std::vector<std::string> v = f.pattern->Values(param);
    any_uint = any_uint || (v.empty() && f.pattern->Accepts(param, "1"));
    for (std::string& x : v) {
      if (std::find(values.begin(), values.end(), x) == values.end()) {
        values.push_back(std::move(x));
      }
    }
  }
  const bool numbers =
      std::all_of(values.begin(), values.end(), [](const std::string& v) {
        int64_t n;
        return absl::SimpleAtoi(v, &n);
      });
  if (numbers) {
    std::sort(values.begin(), values.end(),
              [](const std::string& a, const std::string& b) {
                int64_t x = 0, y = 0;
                (void)absl::SimpleAtoi(a, &x);
                (void)absl::SimpleAtoi(b, &y);
                return x < y;
              });
  }
  if (any_uint) return "any unsigned integer";
  std::vector<std::string> shown;
  for (const std::string& v : values) shown.push_back(v.empty() ? "(none)" : v);
  return absl::StrJoin(shown, "|");
}

// The two values of `values` nearest `text`: by magnitude for integers,
// else by edit distance.
std::vector<std::string> NearestValues(absl::string_view text,
                                       const std::vector<std::string>& values) {
  int64_t n = 0;
  if (absl::SimpleAtoi(text, &n)) {
    std::vector<std::pair<int64_t, std::string>> by_gap;
    for (const std::string& v : values) {
      int64_t x = 0;
      if (absl::SimpleAtoi(v, &x))
        by_gap.emplace_back(x > n ? x - n : n - x, v);
    }
    std::stable_sort(
        by_gap.begin(), by_gap.end(),
        [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> out;
    for (size_t i = 0; i < by_gap.size() && i < 2; ++i) {
      out.push_back(by_gap[i].second);
    }
    return out;
  }
  return NearestNames(text, values, 2);
}

}  // namespace

std::vector<std::string> NearestInstances(
    absl::string_view name, const std::vector<const NamePattern*>& patterns,
    size_t count) {
  std::vector<std::string> candidates;
  for (const NamePattern* p : patterns) {
    for (std::string& c : p->Instances(64, false)) {
      candidates.push_back(std::move(c));
    }
  }
  return NearestNames(name, candidates, count);
}

bool FitsAFamily(const absl::Status& status) {
  return absl::StrContains(status.message(), "' (family ");
}

namespace {

// The families `name` fits with other parameters: over the whole name when
// it can be, else over its part before '<'.
std::vector<Fit> FittingFamilies(
    absl::string_view name, const std::vector<const NamePattern*>& patterns,
    const std::vector<std::string>& families) {
  std::vector<Fit> fits;
  for (bool whole : {true, false}) {
    for (size_t i = 0; i < patterns.size(); ++i) {
      if (patterns[i]->Count(false) <= 1) continue;
      auto values = patterns[i]->LooseBindings(name, whole);
      if (values)
        fits.push_back({patterns[i], families[i], *std::move(values)});
    }
    if (!fits.empty()) break;
  }
  return fits;
}

// The parameters whose value no fitting family takes, in order: each as
// (param, text) in `bad` and as a sentence in `problems`.
void ValuesNoFamilyTakes(
    const std::vector<Fit>& fits, std::vector<std::string>* problems,
    std::vector<std::pair<std::string, std::string>>* bad) {
  for (const Fit& f : fits) {
    for (const NamePattern::LooseValue& v : f.values) {
      bool taken = false;
      for (const Fit& g : fits)
        taken = taken || g.pattern->Accepts(v.param, v.text);
      const std::pair<std::string, std::string> key(v.param, v.text);
      if (taken || std::find(bad->begin(), bad->end(), key) != bad->end()) {
        continue;
      }
      bad->push_back(key);
      std::vector<std::string> values;
      problems->push_back(
          absl::StrCat(v.param, " = ", v.text.empty() ? "(none)" : v.text,
                       " is not one of ", UnionDomain(fits, v.param, values)));
    }
  }
}

// The name with each bad value replaced by its nearest valid ones (the
// last first, so that the offsets before it hold), at most 8.
std::vector<std::string> NamesWithValuesFixed(
    absl::string_view name, const std::vector<Fit>& fits,
    const std::vector<std::pair<std::string, std::string>>& bad) {
  struct Fix {
    size_t offset;
    std::string text;
    std::vector<std::string> by;
  };
  std::vector<Fix> fixes;
  for (const auto& entry : bad) {
    // Named copies: C++17 lambdas cannot capture structured bindings.
    const auto& param = entry.first;
    const auto& text = entry.second;
    std::vector<std::string> values;
    UnionDomain(fits, param, values);
    for (const Fit& f : fits) {
      auto v = std::find_if(
          f.values.begin(), f.values.end(),
          [&](const auto& x) { return x.param == param && x.text == text; });
      if (v == f.values.end()) continue;
      fixes.push_back({v->offset, text, NearestValues(text, values)});
      break;
    }
  }
  std::sort(fixes.begin(), fixes.end(),
            [](const Fix& a, const Fix& b) { return a.offset > b.offset; });
  std::vector<std::string> queries = {std::string(name)};
  for (const Fix& fix : fixes) {
    std::vector<std::string> next;
    for (const std::string& q : queries) {
      for (const std::string& r : fix.by) {
        if (next.size() >= 8) break;
        std::string fixed = q;
        fixed.replace(fix.offset, fix.text.size(), r);
        next.push_back(std::move(fixed));
      }
    }
    if (!next.empty()) queries = std::move(next);
  }
  return queries;
}

// The suggestions: first the fixed names `queries` (two, when they name an
// atom; else the name nearest each such text, when a value was bad), then
// the names one edit away from `name`.
std::vector<std::string> Suggestions(
    absl::string_view name, const std::vector<const NamePattern*>& patterns,
    const std::vector<Fit>& fits, bool any_bad,
    const std::vector<std::string>& queries) {
  std::vector<std::string> nearest;
  auto add = [&](std::string n) {
    if (std::find(nearest.begin(), nearest.end(), n) == nearest.end()) {
      nearest.push_back(std::move(n));
    }
  };
  int named = 0;
  for (const std::string& q : queries) {
    bool is_name = false;
    for (const Fit& f : fits) {
      is_name = is_name || f.pattern->Match(q).has_value();
    }
    if (is_name && named < 2) {
      add(q);
      ++named;
    }
  }
  if (named == 0 && any_bad) {
    std::vector<std::string> in_fits;
    for (const Fit& f : fits) {
      for (std::string& c : f.pattern->Instances(kInstancesPerFamily, false)) {
        in_fits.push_back(std::move(c));
      }
    }
    for (size_t q = 0; q < queries.size() && q < 2; ++q) {
      for (std::string& n : NearestNames(queries[q], in_fits, 1)) {
        add(std::move(n));
      }
    }
  }
  // Of the five nearest the name as written, those one edit away: a near
  // miss of a name gets that name back, a name of a family with a wrong
  // value no unrelated atoms.
  for (std::string& n : NearestInstances(name, patterns, 5)) {
    if (EditDistanceUpTo(name, n, 1) <= 1) add(std::move(n));
  }
  return nearest;
}

}  // namespace

absl::Status UnknownAtomError(absl::string_view kind, absl::string_view name,
                              const std::vector<const NamePattern*>& patterns,
                              const std::vector<std::string>& families) {
  const std::vector<Fit> fits = FittingFamilies(name, patterns, families);
  if (fits.empty()) {
    return absl::NotFoundError(
        absl::StrCat("unknown ", kind, " '", name, "'; nearest: ",
                     absl::StrJoin(NearestInstances(name, patterns, 5), ", ")));
  }
  std::vector<std::string> family_names;
  for (const Fit& f : fits) {
    if (std::find(family_names.begin(), family_names.end(), f.family) ==
        family_names.end()) {
      family_names.push_back(f.family);
    }
  }
  std::vector<std::string> problems;
  std::vector<std::pair<std::string, std::string>> bad;  // (param, text)
  ValuesNoFamilyTakes(fits, &problems, &bad);
  const std::vector<std::string> nearest =
      Suggestions(name, patterns, fits, !bad.empty(),
                  NamesWithValuesFixed(name, fits, bad));
  std::string message = absl::StrCat("unknown ", kind, " '", name, "' (family ",
                                     absl::StrJoin(family_names, " or "), ")");
  if (problems.empty()) {
    absl::StrAppend(&message, ": no atom of ",
                    family_names.size() > 1 ? "these families" : "this family",
                    " takes these parameters together");
  } else {
    absl::StrAppend(&message, ": ", absl::StrJoin(problems, "; "));
  }
  if (!nearest.empty()) {
    absl::StrAppend(&message, "; nearest: ", absl::StrJoin(nearest, ", "));
  }
  return absl::NotFoundError(message);
}

absl::StatusOr<Layout> TableLayout(const char* templ, const Bindings& b) {
  HLOLAYOUT_ASSIGN_OR_RETURN(std::string text, Substitute(templ, b));
  return ParseLayout(text);
}

}  // namespace hlolayout::cute::atom_internal
