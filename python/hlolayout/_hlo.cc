// python/hlolayout/_hlo.cc: HLO module text for `hlolayout.hlo`
// (hlo/reader.h): modules, computations and instructions as plain
// lists and dicts, which hlo.py wraps in its classes.
//
//   >>> m = hl.read_hlo("ENTRY %e (p: f32[2]) -> f32[2] {\n"
//   ...                 "  ROOT %p = f32[2]{0} parameter(0)\n}\n")[0]
//   >>> m.entry.root.name
//   'p'
//
// Reading releases the GIL.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "_binding.h"
#include "absl/status/statusor.h"
#include "hlolayout/hlo/reader.h"
#include "hlolayout/shape/shape.h"

namespace py = pybind11;

namespace hlolayout::pyext {
namespace {

py::object ShapeOrNone(const Shape* shape) {
  if (shape == nullptr) return py::none();
  return py::cast(MakePyShape(*shape));
}

// read_hlo: modules as plain nested lists/dicts; the Python side wraps them.
py::list PyReadHlo(const std::string& text, const std::string& file_name) {
  HloReadOptions options;
  options.file_name = file_name;
  absl::StatusOr<std::vector<HloModule>> modules;
  {
    py::gil_scoped_release release;
    modules = ReadHloModules(text, options);
  }
  std::vector<HloModule> mods = Unwrap(std::move(modules));
  py::list out;
  for (const HloModule& m : mods) {
    py::list computations;
    for (size_t c = 0; c < m.computations.size(); ++c) {
      const HloComputation& comp = m.computations[c];
      py::list instructions;
      for (size_t i = 0; i < comp.instructions.size(); ++i) {
        const HloInstruction& in = comp.instructions[i];
        py::list operands;
        for (const HloOperand& op : in.operands()) {
          operands.append(
              py::make_tuple(std::string(op.name), ShapeOrNone(op.shape)));
        }
        py::dict attributes;
        for (const HloAttribute& a : in.attributes()) {
          py::str key(std::string(a.name()));
          if (!attributes.contains(key))
            attributes[key] = std::string(a.value());
        }
        py::dict d;
        d["name"] = std::string(in.name());
        d["opcode"] = std::string(in.opcode_name());
        d["shape"] = ShapeOrNone(in.shape);
        d["operands"] = operands;
        d["attributes"] = attributes;
        d["is_root"] = static_cast<int64_t>(i) == comp.root_index;
        d["parameter_number"] = in.parameter_number
                                    ? py::object(py::int_(*in.parameter_number))
                                    : py::object(py::none());
        instructions.append(d);
      }
      py::dict cd;
      cd["name"] = std::string(comp.header.name);
      cd["is_entry"] = static_cast<int64_t>(c) == m.entry_index;
      cd["instructions"] = instructions;
      computations.append(cd);
    }
    py::dict md;
    md["name"] = std::string(m.header.name);
    md["computations"] = computations;
    md["entry_index"] = m.entry_index;
    out.append(md);
  }
  return out;
}

}  // namespace

void RegisterHlo(py::module_& m) {
  m.def("read_hlo", &PyReadHlo, py::arg("text"), py::arg("file_name") = "");
}

}  // namespace hlolayout::pyext
