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

// make_tiled_copy_C_atom's Tiler_MN is made of layouts, ((_8,_2):(_1,_16),
// _4:_2) here; print_latex draws cell (m,n) of its shape (16 x 4) at tile
// index m + 16n (get_layoutS_MN), not at the tiler's image (which reaches
// row 23 and column 6).
TEST(CuteAtomPicturesTest, CAtomTileIsDrawnOverTheTilersShape) {
  CliResult r =
      RunCli({"cute", "draw-copy", "Copy_Atom<UniversalCopy<half_t>, half_t>",
              "--operand", "C_atom", "--mma", "SM80_16x8x16_F16F16F16F16_TN",
              "--atom-layout", "(2,1,1)", "--svg", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  // LayoutS_TV ((_4,_16),(_1,_1)):((_16,_1),(_0,_0)): thread 1 -> index 16
  // = (0,1), thread 4 -> index 1 = (1,0), thread 63 -> 63 = (15,3).
  const auto panels = SvgPanels(r.out);
  ASSERT_EQ(panels.count("S"), 1u);
  EXPECT_EQ(panels.at("S").size(), 64u);
  EXPECT_EQ(panels.at("S").at("0,1"), "1/0/1");
  EXPECT_EQ(panels.at("S").at("1,0"), "4/0/4");
  EXPECT_EQ(panels.at("S").at("15,3"), "63/0/7");
}

// print_latex's arrangement of a TiledMMA: B above C, A to C's left, their
// cells in line (A's rows with C's, B's columns with C's), one cell size.
TEST(CuteAtomPicturesTest, MmaPanelsAreArrangedAsPrintLatexDoes) {
  CliResult r = RunCli({"cute", "draw-mma", "SM80_16x8x16_F16F16F16F16_TN",
                        "--atom-layout", "(2,2,1)", "--svg", "-"});
  ASSERT_EQ(r.status, 0) << r.err;
  // The x and y of the first cell of each row and column of each panel.
  auto cell_at = [&](const std::string& panel, const std::string& coord) {
    const size_t start = r.out.find(absl::StrCat(">", panel, " ("));
    EXPECT_NE(start, std::string::npos) << panel;
    const std::regex cell(absl::StrCat(
        R"re(data-coord=")re", coord,
        R"re(" [^>]*><rect x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="([\d.]+)")re"));
    std::smatch m;
    const std::string part = r.out.substr(start);
    EXPECT_TRUE(std::regex_search(part, m, cell)) << panel << " " << coord;
    return std::vector<double>{std::stod(m[1]), std::stod(m[2]),
                               std::stod(m[3]), std::stod(m[4])};
  };
  const std::vector<double> a = cell_at("A", "5,0"), b = cell_at("B", "0,7"),
                            c = cell_at("C", "5,7"), c0 = cell_at("C", "0,0");
  EXPECT_EQ(a[1], c[1]);   // A's row 5 is C's row 5
  EXPECT_EQ(b[0], c[0]);   // B's column 7 is C's column 7
  EXPECT_LT(a[0], c0[0]);  // A left of C
  EXPECT_LT(b[1], c0[1]);  // B above C
  EXPECT_EQ(a[2], c[2]);   // one cell size
  EXPECT_EQ(b[3], c[3]);
  // Readable in a 1,280-pixel window: the picture is at most that wide.
  const std::regex size(R"re(<svg [^>]*width="(\d+)")re");
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, size));
  EXPECT_LE(std::stoi(m[1]), 1280);
  // Each cell says T<thread> over V<value>.
  EXPECT_NE(r.out.find(">T65</text><text x="), std::string::npos);
}

// A one-grid picture names its layout once, in text and in SVG (the title
// and the grid's heading were the same line twice).
TEST(CuteAtomPicturesTest, TitlesArePrintedOnce) {
  struct Case {
    std::vector<std::string> args;
    std::string named;  // in the title, nowhere else
  };
  const Case cases[] = {
      {{"cute", "draw-banks", "(4,16):(16,1)", "--bits", "32"},
       "(4,16):(16,1)"},
      {{"cute", "draw", "(4,2):(2,1)"}, "(4,2):(2,1)"},
      {{"triton", "draw",
        "#ttg.blocked<{sizePerThread = [1, 4], threadsPerWarp = [4, 8], "
        "warpsPerCTA = [4, 1], order = [1, 0]}>",
        "--shape", "16x16"},
       "sizePerThread"},
  };
  auto count = [](const std::string& text, const std::string& part) {
    int n = 0;
    for (size_t at = text.find(part); at != std::string::npos;
         at = text.find(part, at + 1)) {
      ++n;
    }
    return n;
  };
  for (const Case& c : cases) {
    std::vector<std::string> text = c.args, svg = c.args;
    text.insert(text.end(), {"--color", "never"});
    svg.insert(svg.end(), {"--svg", "-"});
    CliResult t = RunCli(text), s = RunCli(svg);
    ASSERT_EQ(t.status, 0) << t.err;
    ASSERT_EQ(s.status, 0) << s.err;
    EXPECT_EQ(count(t.out, c.named), 1) << t.out.substr(0, 400);
    EXPECT_EQ(count(t.out.substr(0, t.out.find('\n')), c.named), 1);
    EXPECT_EQ(count(s.out, c.named), 1) << absl::StrJoin(c.args, " ");
  }
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
