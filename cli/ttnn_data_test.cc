// `hlolayout ttnn spec/mesh --json` against answers tt-metal's own code
// computed (ttnn/testdata/README.md):
//   - tensor_specs.jsonl: 140 specs from tt-metal's C++ (commit a8c5af0f5a26),
//     every output field and every refusal;
//   - heldout_ttnn_0.81.1.jsonl: 280 specs from the ttnn 0.81.1 wheel, the
//     fields ttnn answers host-only;
//   - mesh_ttnn_0.81.1.jsonl: 60 mesh distributions from the same wheel.
#include <cstdint>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "gtest/gtest.h"
#include "hlolayout/testing/run_cli.h"
#include "hlolayout/testing/test_data.h"
#include "hlolayout/util/json_reader.h"

namespace hlolayout::cli {
namespace {

using ::hlolayout::JsonValue;

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  for (absl::string_view l : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    lines.emplace_back(l);
  }
  return lines;
}

std::string ReadFile(const std::string& repo_path) {
  std::ifstream in(TestDataPath(repo_path), std::ios::binary);
  EXPECT_TRUE(in.good()) << repo_path;
  return std::string(std::istreambuf_iterator<char>(in), {});
}

JsonValue Parse(const std::string& text) {
  absl::StatusOr<JsonValue> v = ParseJson(text);
  EXPECT_TRUE(v.ok()) << v.status().message() << "\n" << text.substr(0, 200);
  return v.ok() ? *std::move(v) : JsonValue();
}

// A canonical text of a JSON value (object keys in the order they came).
std::string Show(const JsonValue& v) {
  switch (v.kind) {
    case JsonValue::Kind::kNull:
      return "null";
    case JsonValue::Kind::kBool:
      return v.boolean ? "true" : "false";
    case JsonValue::Kind::kNumber:
      return v.is_integer ? absl::StrCat(v.integer) : absl::StrCat(v.number);
    case JsonValue::Kind::kString:
      return absl::StrCat("\"", v.string, "\"");
    case JsonValue::Kind::kArray: {
      std::vector<std::string> parts;
      for (const JsonValue& e : v.array) parts.push_back(Show(e));
      return absl::StrCat("[", absl::StrJoin(parts, ", "), "]");
    }
    case JsonValue::Kind::kObject: {
      std::map<std::string, std::string> parts;  // sorted keys
      for (const auto& [k, e] : v.object) parts[k] = Show(e);
      std::vector<std::string> out;
      for (const auto& [k, s] : parts) out.push_back(k + ": " + s);
      return absl::StrCat("{", absl::StrJoin(out, ", "), "}");
    }
  }
  return "?";
}

std::string Field(const JsonValue& v, absl::string_view key) {
  const JsonValue* f = v.Find(key);
  return f ? Show(*f) : "(none)";
}

// The answers of `hlolayout ttnn spec --json [--full]` for every row's input,
// without the device check (--device none): tt-metal's TensorSpec takes
// any grid (one row reaches core (6,8), past an n150's 8x8 cores).
std::vector<JsonValue> Answers(const std::string& repo_path, bool full) {
  std::vector<std::string> args = {
      "ttnn",     "spec", "--json", "--spec", TestDataPath(repo_path),
      "--device", "none"};
  if (full) args.push_back("--full");
  const CliResult r = RunCli(args);
  std::vector<JsonValue> out;
  for (const std::string& l : Lines(r.out)) out.push_back(Parse(l));
  return out;
}

TEST(TtnnDataTest, EveryFieldOfTtMetalsAnswersAgrees) {
  const std::vector<std::string> rows =
      Lines(ReadFile("ttnn/testdata/tensor_specs.jsonl"));
  ASSERT_EQ(rows.size(), 140u);
  const std::vector<JsonValue> got =
      Answers("ttnn/testdata/tensor_specs.jsonl", false);
  ASSERT_EQ(got.size(), rows.size());
  std::map<std::string, std::pair<int, int>> fields;  // agree, differ
  int refusals = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const JsonValue row = Parse(rows[i]);
    const std::string id = Field(row, "id");
    if (const JsonValue* error = row.Find("error")) {
      // tt-metal's refusals in the data are all GRID_2D with a shard of
      // rank 3 or more.
      ASSERT_TRUE(absl::StrContains(error->string, "rank() <= 2")) << id;
      EXPECT_EQ(Field(got[i], "rule"), "\"grid2d-shard-rank\"") << "row " << id;
      ++refusals;
      continue;
    }
    const JsonValue& want = *row.Find("output");
    for (const auto& [key, value] : want.object) {
      const bool same = Field(got[i], key) == Show(value);
      (same ? fields[key].first : fields[key].second)++;
      EXPECT_TRUE(same) << "row " << id << " " << key
                        << "\n  tt-metal: " << Show(value)
                        << "\n  hlolayout: " << Field(got[i], key);
    }
    for (const auto& [key, value] : got[i].object) {
      // hlolayout's own keys: the device the spec was checked against and
      // its warnings (ttnn/device.h), none of tt-metal's fields.
      if (key == "device" || key == "warnings") continue;
      EXPECT_NE(want.Find(key), nullptr) << "row " << id << " extra " << key;
    }
  }
  EXPECT_EQ(refusals, 8);
  for (const auto& [key, n] : fields) {
    std::cout << key << ": " << n.first << " agree, " << n.second
              << " differ\n";
  }
}

// Each core's host pages in device order, padding left out, from the CLI's
// page mapping (all pages with --full).
std::string CorePages(const JsonValue& distribution) {
  std::vector<std::string> cores;
  for (const JsonValue& m : distribution.Find("page_mapping")->array) {
    std::vector<std::string> pages;
    for (const JsonValue& p : m.Find("first_host_pages")->array) {
      if (p.integer >= 0) pages.push_back(absl::StrCat(p.integer));
    }
    cores.push_back(absl::StrCat("[", absl::StrJoin(pages, ", "), "]"));
  }
  return absl::StrCat("[", absl::StrJoin(cores, ", "), "]");
}

TEST(TtnnDataTest, HeldOutAnswersOfTtnn0811Agree) {
  const std::vector<std::string> rows =
      Lines(ReadFile("ttnn/testdata/heldout_ttnn_0.81.1.jsonl"));
  ASSERT_EQ(rows.size(), 280u);
  const std::vector<JsonValue> got =
      Answers("ttnn/testdata/heldout_ttnn_0.81.1.jsonl", true);
  ASSERT_EQ(got.size(), rows.size());
  int accepted = 0, refused = 0, documented = 0;
  for (size_t i = 0; i < rows.size(); ++i) {
    const JsonValue row = Parse(rows[i]);
    const JsonValue& ttnn = *row.Find("ttnn");
    const std::string id = Field(row, "id");
    if (ttnn.Find("error")) {
      EXPECT_EQ(Field(got[i], "rule"), Field(ttnn, "rule")) << "row " << id;
      ++refused;
      continue;
    }
    if (got[i].Find("error")) {
      // docs/ttnn.md: int8 and fp8_e4m3 have no row-major page size in
      // tt-metal, which ttnn only asks for a device buffer.
      EXPECT_EQ(Field(got[i], "rule"), "\"row-major-element-size\"")
          << "row " << id << ": " << Field(got[i], "error");
      ++documented;
      continue;
    }
    ++accepted;
    for (absl::string_view key :
         {"memory_layout", "padded_shape", "resolved_nd_shard_spec"}) {
      EXPECT_EQ(Field(got[i], key), Field(ttnn, key))
          << "row " << id << " " << key;
    }
    if (ttnn.Find("resolved_shard_spec")) {
      EXPECT_EQ(Field(got[i], "resolved_shard_spec"),
                Field(ttnn, "resolved_shard_spec"))
          << "row " << id;
    }
    if (ttnn.Find("tile_bytes")) {
      EXPECT_EQ(Field(got[i], "page_size_bytes"), Field(ttnn, "tile_bytes"))
          << "row " << id;
    }
    if (ttnn.Find("cores")) {
      const JsonValue* d = got[i].Find("distribution");
      ASSERT_NE(d, nullptr) << "row " << id;
      EXPECT_EQ(Field(*d, "cores"), Field(ttnn, "cores")) << "row " << id;
      EXPECT_EQ(CorePages(*d), Field(ttnn, "core_host_pages")) << "row " << id;
    }
  }
  EXPECT_EQ(accepted + refused + documented, 280);
  std::cout << accepted << " accepted, " << refused << " refused, "
            << documented << " documented differences\n";
}

TEST(TtnnDataTest, MeshSlicesOfTtnn0811Agree) {
  const std::vector<std::string> rows =
      Lines(ReadFile("ttnn/testdata/mesh_ttnn_0.81.1.jsonl"));
  ASSERT_EQ(rows.size(), 60u);
  for (const std::string& line : rows) {
    const JsonValue row = Parse(line);
    std::vector<std::string> placements, shape, mesh;
    for (const JsonValue& p : row.Find("placements")->array) {
      placements.push_back(p.Find("shard")->boolean
                               ? absl::StrCat("S", p.Find("dim")->integer)
                               : "R");
    }
    for (const JsonValue& d : row.Find("shape")->array) {
      shape.push_back(absl::StrCat(d.integer));
    }
    for (const JsonValue& d : row.Find("mesh")->array) {
      mesh.push_back(absl::StrCat(d.integer));
    }
    std::vector<std::string> args = {"ttnn",
                                     "mesh",
                                     "--json",
                                     "--layout",
                                     "ROW_MAJOR",
                                     "--dtype",
                                     "float32",
                                     "--mesh",
                                     absl::StrJoin(mesh, "x"),
                                     "--placements",
                                     absl::StrJoin(placements, ","),
                                     "--shape",
                                     absl::StrJoin(shape, ",")};
    if (const JsonValue* o = row.Find("mesh_shape_override")) {
      std::vector<std::string> dims;
      for (const JsonValue& d : o->array)
        dims.push_back(absl::StrCat(d.integer));
      args.push_back("--mesh-shape-override");
      args.push_back(absl::StrJoin(dims, "x"));
    }
    const CliResult r = RunCli(args);
    const JsonValue got = Parse(Lines(r.out).at(0));
    const JsonValue& ttnn = *row.Find("ttnn");
    const std::string what = absl::StrJoin(args, " ");
    if (ttnn.Find("error")) {
      EXPECT_EQ(Field(got, "rule"), Field(ttnn, "rule")) << what;
      continue;
    }
    std::map<std::string, std::string> mine, theirs;
    for (const JsonValue& d : got.Find("devices")->array) {
      if (!d.Find("holds_data")->boolean) continue;
      mine[Field(d, "device")] = Field(d, "begin") + " " + Field(d, "end");
    }
    for (const JsonValue& d : ttnn.Find("devices")->array) {
      theirs[Field(d, "device")] = Field(d, "begin") + " " + Field(d, "end");
    }
    EXPECT_EQ(mine, theirs) << what;
  }
}

// The shard shapes ttnn.create_sharded_memory_config gave (ttnn 0.81.1):
// a spec without a shard shape gets the same one from hlolayout, and where
// ttnn refused ("Invalid sharding core_grid"), hlolayout refuses by rule
// shard-derive.
TEST(TtnnDataTest, DerivedShardShapesOfTtnn0811Agree) {
  const std::vector<std::string> rows =
      Lines(ReadFile("ttnn/testdata/derive_ttnn_0.81.1.jsonl"));
  ASSERT_EQ(rows.size(), 300u);
  std::string specs;
  std::vector<JsonValue> cases;
  for (const std::string& line : rows) {
    JsonValue row = Parse(line);
    const JsonValue* o = row.Find("orientation");
    const int64_t x = row.Find("x")->integer, y = row.Find("y")->integer;
    absl::StrAppend(
        &specs, "{\"shape\": ", Show(*row.Find("shape")),
        ", \"layout\": \"ROW_MAJOR\", \"buffer_type\": \"L1\", "
        "\"memory_layout\": \"",
        row.Find("strategy")->string,
        "_SHARDED\", \"shard_spec\": {\"grid\": [[[0, 0], [", x - 1, ", ",
        y - 1, "]]], \"orientation\": ",
        o->kind == JsonValue::Kind::kNull ? "\"ROW_MAJOR\"" : Show(*o), "}}\n");
    cases.push_back(std::move(row));
  }
  const CliResult r = RunCli(
      {"ttnn", "spec", "--json", "--device", "none", "--spec", "-"}, specs);
  const std::vector<std::string> got = Lines(r.out);
  ASSERT_EQ(got.size(), rows.size()) << r.err;
  int shapes = 0, refusals = 0;
  for (size_t i = 0; i < got.size(); ++i) {
    const JsonValue ours = Parse(got[i]);
    const JsonValue& ttnn = *cases[i].Find("ttnn");
    if (ttnn.Find("error")) {
      EXPECT_EQ(Field(ours, "rule"), "\"shard-derive\"") << "row " << i;
      ++refusals;
      continue;
    }
    const JsonValue* resolved = ours.Find("resolved_shard_spec");
    ASSERT_NE(resolved, nullptr) << "row " << i << ": " << got[i];
    EXPECT_EQ(Field(*resolved, "shape"), Show(*ttnn.Find("shape")))
        << "row " << i;
    EXPECT_EQ(Field(ours, "shard_shape_derived"), "true") << "row " << i;
    ++shapes;
  }
  EXPECT_EQ(shapes, 230);
  EXPECT_EQ(refusals, 70);
}

}  // namespace
}  // namespace hlolayout::cli
