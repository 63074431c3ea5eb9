// Tests of `hlolayout cute draw-mma|draw-copy|draw-banks`: every cell of the
// pictures CuTe's print_latex made (cute/atom/testdata/latex_cells.tsv: the
// thread, value and colour of each cell of each panel) against the SVG's
// cells, and the text and error forms.
#include <fstream>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"
#include "hlolayout/testing/test_data.h"

namespace hlolayout::cli {
namespace {

// CuTe's TikzColor_TV in order.
const char* const kColours[8] = {"#AFAFFF", "#AFFFAF", "#FFFFAF", "#FFAFAF",
                                 "#D2D2FF", "#D2FFD2", "#FFFFD2", "#FFD2D2"};

// Panel heading letter -> (r,c) -> "t/v/colour".
std::map<std::string, std::map<std::string, std::string>> SvgPanels(
    const std::string& svg) {
  std::map<std::string, std::map<std::string, std::string>> out;
  const std::regex panel(
      R"re(<g class="cute tv"><text class="heading"[^>]*>(\w))re");
  const std::regex cell(
      R"re(<g class="tv-cell" data-coord="(\d+),(\d+)" data-thread="(\d+)" data-value="(\d+)"><rect[^>]* fill="(#[0-9A-F]{6})")re");
  std::vector<std::pair<size_t, std::string>> starts;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), panel);
       it != std::sregex_iterator(); ++it) {
    starts.emplace_back(it->position(), (*it)[1]);
  }
  for (size_t p = 0; p < starts.size(); ++p) {
    const size_t end = p + 1 < starts.size() ? starts[p + 1].first : svg.size();
    const std::string part = svg.substr(starts[p].first, end - starts[p].first);
    for (auto it = std::sregex_iterator(part.begin(), part.end(), cell);
         it != std::sregex_iterator(); ++it) {
      int colour = -1;
      for (int k = 0; k < 8; ++k) {
        if ((*it)[5] == kColours[k]) colour = k;
      }
      out[starts[p].second][absl::StrCat((*it)[1].str(), ",", (*it)[2].str())] =
          absl::StrCat((*it)[3].str(), "/", (*it)[4].str(), "/", colour);
    }
  }
  return out;
}

TEST(CuteAtomPicturesTest, CellsMatchCutePrintLatex) {
  std::ifstream in(TestDataPath("cute/atom/testdata/latex_cells.tsv"));
  ASSERT_TRUE(in.good());
  std::string line;
  int panels = 0, cells = 0;
  std::map<std::string,
           std::map<std::string, std::map<std::string, std::string>>>
      cache;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> f = absl::StrSplit(line, '\t');
    size_t bar = 0;
    while (f[bar] != "|") ++bar;
    std::vector<std::string> args(f.begin(), f.begin() + bar);
    const std::string key = absl::StrJoin(args, " ");
    if (!cache.count(key)) {
      args.push_back("--svg");
      args.push_back("-");
      CliResult r = RunCli(args);
      ASSERT_EQ(r.status, 0) << key << "\n" << r.err;
      cache[key] = SvgPanels(r.out);
    }
    const std::string& panel = f[bar + 1];
    const int rows = std::stoi(f[bar + 2]), cols = std::stoi(f[bar + 3]);
    std::vector<std::string> want = absl::StrSplit(f[bar + 4], ' ');
    ASSERT_EQ(want.size(), static_cast<size_t>(rows * cols)) << key;
    const auto& got = cache[key][panel];
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const std::string& w = want[r * cols + c];
        const std::string coord = absl::StrCat(r, ",", c);
        auto it = got.find(coord);
        if (w == "-") {
          EXPECT_TRUE(it == got.end()) << key << " " << panel << " " << coord;
        } else {
          ASSERT_TRUE(it != got.end()) << key << " " << panel << " " << coord;
          EXPECT_EQ(it->second, w) << key << " " << panel << " " << coord;
          ++cells;
        }
      }
    }
    ++panels;
  }
  EXPECT_EQ(panels, 20);
  EXPECT_GT(cells, 5000);
}

TEST(CuteAtomPicturesTest, TextPicture) {
  CliResult r = RunCli({"cute", "draw-mma", "SM80_8x8x4_F64F64F64F64_TN",
                        "--atom-layout", "(1,2,1)", "--color", "never"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("C (M=8 x N=16)"), std::string::npos);
  EXPECT_NE(r.out.find("T35 V1"), std::string::npos);
}

TEST(CuteAtomPicturesTest, BanksPicture) {
  CliResult r = RunCli(
      {"cute", "draw-banks", "(4,16):(16,1)", "--bits", "32", "--svg", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(R"(data-coord="1,3" data-offset="19" data-bank="19")"),
            std::string::npos);
}

TEST(CuteAtomPicturesTest, Errors) {
  CliResult r = RunCli({"cute", "draw-mma", "SM80_16x8x16_F16F16F16F16_NT"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("nearest"), std::string::npos);
  r = RunCli({"cute", "draw-copy", "Copy_Atom<DefaultCopy, float>"});
  EXPECT_EQ(r.status, 2);
  // A 256x256 C tile is more than a panel holds.
  r = RunCli({"cute", "draw-mma",
              "SM90_64x256x16_F16F16F16_SS<GMMA::Major::K,GMMA::Major::K>",
              "--atom-layout", "(4,1,1)"});
  EXPECT_EQ(r.status, 1);
  EXPECT_NE(r.err.find("too large"), std::string::npos);
}

}  // namespace
}  // namespace hlolayout::cli
