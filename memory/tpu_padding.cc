// What tile padding costs in an XLA:TPU module's HBM allocations, and a
// layout that pads less (memory/tpu_memory.h, TpuPadding).
#include <algorithm>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "hlolayout/layout/sizes.h"
#include "hlolayout/memory/tpu_memory_internal.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout {
namespace tpu_memory_internal {
namespace {

// Logical bytes of an array shape; -1 when it cannot be sized.
int64_t LogicalBytes(const Shape* shape) {
  if (shape == nullptr || !shape->IsArray()) return -1;
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(*shape);
  return sizes.ok() ? sizes->logical_bytes : -1;
}

int64_t PaddedBytes(const Shape& shape) {
  absl::StatusOr<ArraySizes> sizes = ComputeArraySizes(shape);
  return sizes.ok() ? sizes->padded_bytes : -1;
}

// The places of one allocation: values at one offset with one shape.
struct Place {
  const AssignedValue* first = nullptr;
  int64_t values = 0;
  int64_t bytes = 0;
};

TpuPaddedArray MakeArray(const BufferAllocation& x, const Place& p,
                         int64_t logical, const MemoryAnalysis& a,
                         const HloSourceLocations& where) {
  TpuPaddedArray out;
  out.allocation = x.index;
  out.kind = x.kind();
  const AssignedValue& v = *p.first;
  const ValueFacts facts = FactsOf(a, v.value, where);
  out.name = !facts.name.empty()
                 ? facts.name
                 : absl::StrCat(v.name, ShapeIndexString(v.index));
  out.values = p.values;
  out.shape = v.shape->ToString(true);
  out.bytes = p.bytes;
  out.logical_bytes = logical;
  out.padding_bytes = p.bytes - logical;
  out.ratio = logical > 0 ? static_cast<double>(p.bytes) / logical : 0.0;
  out.op_name = facts.op_name;
  out.source = facts.source;
  return out;
}

// An array of an HBM allocation that pads, before its words are made (the
// rankings make them for the arrays they keep only).
struct Padded {
  const BufferAllocation* allocation = nullptr;
  Place place;
  int64_t logical = 0;
  int64_t padding_bytes() const { return place.bytes - logical; }
  double ratio() const {
    return logical > 0 ? static_cast<double>(place.bytes) / logical : 0.0;
  }
};

// The places of one allocation, by offset and shape (the shape as
// ToString(true) writes it). Values of one shape text mostly share one Shape
// object (the reader hands out one a text): a shape is written out once for
// each offset and object, not once a value.
class PlaceTable {
 public:
  Place& At(int64_t offset, const Shape* shape) {
    const auto [by_object, added] =
        by_object_.try_emplace(std::make_pair(offset, shape), 0);
    if (!added) return places_[by_object->second];
    const auto [by_text, new_text] = by_text_.try_emplace(
        std::make_pair(offset, shape->ToString(true)), places_.size());
    if (new_text) places_.emplace_back();
    by_object->second = by_text->second;
    return places_[by_text->second];
  }
  // The places in the order they were first seen.
  size_t size() const { return places_.size(); }
  const Place& operator[](size_t k) const { return places_[k]; }

 private:
  absl::flat_hash_map<std::pair<int64_t, const Shape*>, size_t> by_object_;
  absl::flat_hash_map<std::pair<int64_t, std::string>, size_t> by_text_;
  std::deque<Place> places_;  // a Place& stays valid as places are added
};

// Every array of the HBM allocations that pads, once per place.
std::vector<Padded> PaddedArrays(const BufferAssignment& b) {
  std::vector<Padded> out;
  for (const BufferAllocation& x : b.allocations) {
    if (x.color != 0) continue;
    // Values of one place and shape share it (a loop's values, an update
    // and the operand it writes over).
    PlaceTable places;
    for (const AssignedValue& v : x.values) {
      if (v.shape == nullptr || !v.shape->IsArray()) continue;
      Place& p = places.At(v.offset, v.shape);
      if (p.first == nullptr) p.first = &v;
      ++p.values;
      p.bytes = std::max(p.bytes, v.size);
    }
    for (size_t k = 0; k < places.size(); ++k) {
      const Place& place = places[k];
      const int64_t logical = LogicalBytes(place.first->shape);
      if (logical < 0 || place.bytes <= logical) continue;
      out.push_back(Padded{&x, place, logical});
    }
  }
  return out;
}

// Padding of the values that set the size of the allocations of their own.
int64_t OwnPadding(const BufferAssignment& b) {
  int64_t bytes = 0;
  for (const BufferAllocation& x : b.allocations) {
    if (x.color != 0 || x.is_temp()) continue;
    for (const AssignedValue& v : x.values) {
      if (v.size != x.size) continue;
      const int64_t logical = LogicalBytes(v.shape);
      if (logical >= 0 && x.size > logical) bytes += x.size - logical;
      break;
    }
  }
  return bytes;
}

// Padding of the heap's values at its peak, a shared place once.
int64_t HeapPadding(const BufferAssignment& b, const MemoryAnalysis& a) {
  int64_t bytes = 0;
  std::set<int64_t> places;
  for (int64_t k : b.heap_peak_blocks) {
    const HeapBlock& block = b.heap[k];
    if (!places.insert(block.offset).second) continue;
    const int64_t logical = LogicalBytes(a.values[block.value].shape());
    if (logical >= 0 && block.size > logical) bytes += block.size - logical;
  }
  return bytes;
}

// A layout that pads less for each array, each shape worked out once.
void AddCheaperLayouts(
    std::vector<TpuPaddedArray>& arrays,
    std::map<std::string, std::optional<std::pair<std::string, int64_t>>>&
        known) {
  for (TpuPaddedArray& p : arrays) {
    auto [at, added] = known.try_emplace(p.shape);
    if (added) {
      absl::StatusOr<Shape> shape = ParseShape(p.shape);
      if (shape.ok()) at->second = CheaperTpuLayout(*shape);
    }
    if (!at->second.has_value()) continue;
    p.cheaper_layout = at->second->first;
    p.cheaper_bytes = at->second->second;
  }
}

// The parts of a layout text "m2m:T(a,128)REST": the minor-to-major order,
// a, and REST (packing tiles and what follows them).
struct TiledLayout {
  std::vector<int64_t> minor_to_major;
  int64_t second_minor_tile = 0;
  std::string rest;
  int64_t packing = 1;  // k of a packing tile (k,1) right after, else 1
};

std::optional<TiledLayout> ReadTiledLayout(absl::string_view layout) {
  const size_t colon = layout.find(':');
  if (colon == absl::string_view::npos) return std::nullopt;
  TiledLayout t;
  for (absl::string_view d :
       absl::StrSplit(layout.substr(0, colon), ',', absl::SkipEmpty())) {
    int64_t n = 0;
    if (!absl::SimpleAtoi(d, &n)) return std::nullopt;
    t.minor_to_major.push_back(n);
  }
  absl::string_view attrs = layout.substr(colon + 1);
  if (attrs.substr(0, 2) != "T(") return std::nullopt;
  const size_t close = attrs.find(')');
  if (close == absl::string_view::npos) return std::nullopt;
  const std::vector<absl::string_view> tile =
      absl::StrSplit(attrs.substr(2, close - 2), ',');
  if (tile.size() != 2 || tile[1] != "128" ||
      !absl::SimpleAtoi(tile[0], &t.second_minor_tile)) {
    return std::nullopt;
  }
  t.rest = std::string(attrs.substr(close + 1));
  if (t.rest.size() > 4 && t.rest[0] == '(') {
    const size_t end = t.rest.find(')');
    const std::vector<absl::string_view> pack =
        absl::StrSplit(absl::string_view(t.rest).substr(1, end - 1), ',');
    if (pack.size() == 2 && pack[1] == "1") {
      (void)absl::SimpleAtoi(pack[0], &t.packing);
    }
  }
  return t;
}

// The orders to try: tile padding depends only on the two most minor
// dimensions, so each ordered pair of dimensions as the minor and the
// second minor, the others kept in the array's own order (n(n-1) orders).
std::vector<std::vector<int64_t>> Orders(const std::vector<int64_t>& m2m) {
  std::vector<std::vector<int64_t>> out;
  for (int64_t minor : m2m) {
    for (int64_t second : m2m) {
      if (minor == second) continue;
      std::vector<int64_t> p = {minor, second};
      for (int64_t d : m2m) {
        if (d != minor && d != second) p.push_back(d);
      }
      out.push_back(std::move(p));
    }
  }
  return out;
}

}  // namespace

std::optional<std::pair<std::string, int64_t>> CheaperTpuLayout(
    const Shape& shape) {
  if (!shape.IsArray() || shape.dimensions().size() < 2) return std::nullopt;
  const std::string text = shape.ToString(true);
  const size_t open = text.find('{');
  if (open == std::string::npos || text.back() != '}') return std::nullopt;
  const std::optional<TiledLayout> layout = ReadTiledLayout(
      absl::string_view(text).substr(open + 1, text.size() - open - 2));
  if (!layout.has_value() ||
      layout->minor_to_major.size() != shape.dimensions().size()) {
    return std::nullopt;
  }
  const int64_t now = PaddedBytes(shape);
  if (now < 0) return std::nullopt;
  std::optional<std::pair<std::string, int64_t>> best;
  // (bytes, order changed, smaller tile) of the best: fewer bytes first,
  // then the array's own order, then the largest tile.
  std::tuple<int64_t, bool, int64_t> best_key{now, false, 0};
  for (const std::vector<int64_t>& order : Orders(layout->minor_to_major)) {
    for (int64_t tile : {8, 4, 2, 1}) {
      if (tile < layout->packing || tile > layout->second_minor_tile) continue;
      const std::string candidate =
          absl::StrCat(text.substr(0, open), "{", absl::StrJoin(order, ","),
                       ":T(", tile, ",128)", layout->rest, "}");
      absl::StatusOr<Shape> parsed = ParseShape(candidate);
      if (!parsed.ok()) continue;
      const int64_t bytes = PaddedBytes(*parsed);
      if (bytes < 0) continue;
      const std::tuple<int64_t, bool, int64_t> key{
          bytes, order != layout->minor_to_major, -tile};
      if (bytes < now && (!best.has_value() || key < best_key)) {
        best = std::make_pair(candidate, bytes);
        best_key = key;
      }
    }
  }
  return best;
}

TpuPadding HbmPadding(const BufferAssignment& b, const MemoryAnalysis& a,
                      const HloSourceLocations& where, int64_t top) {
  TpuPadding out;
  out.own_bytes = OwnPadding(b);
  out.heap_bytes = HeapPadding(b, a);
  out.bytes = out.own_bytes + *out.heap_bytes;
  const std::vector<Padded> arrays = PaddedArrays(b);
  out.arrays = static_cast<int64_t>(arrays.size());
  std::vector<const Padded*> by_bytes, by_ratio;
  for (const Padded& p : arrays) {
    by_bytes.push_back(&p);
    if (p.padding_bytes() >= out.ratio_floor_bytes) by_ratio.push_back(&p);
  }
  std::stable_sort(by_bytes.begin(), by_bytes.end(),
                   [](const Padded* x, const Padded* y) {
                     return x->padding_bytes() > y->padding_bytes();
                   });
  std::stable_sort(by_ratio.begin(), by_ratio.end(),
                   [](const Padded* x, const Padded* y) {
                     if (x->ratio() != y->ratio())
                       return x->ratio() > y->ratio();
                     return x->padding_bytes() > y->padding_bytes();
                   });
  auto keep = [&](const std::vector<const Padded*>& ranked,
                  std::vector<TpuPaddedArray>& list) {
    for (const Padded* p : ranked) {
      if (top > 0 && static_cast<int64_t>(list.size()) >= top) break;
      list.push_back(MakeArray(*p->allocation, p->place, p->logical, a, where));
    }
  };
  keep(by_bytes, out.by_bytes);
  keep(by_ratio, out.by_ratio);
  std::map<std::string, std::optional<std::pair<std::string, int64_t>>> known;
  AddCheaperLayouts(out.by_bytes, known);
  AddCheaperLayouts(out.by_ratio, known);
  return out;
}

}  // namespace tpu_memory_internal
}  // namespace hlolayout
