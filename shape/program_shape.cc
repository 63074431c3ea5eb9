#include "hlolayout/shape/program_shape.h"

#include <string>

#include "hlolayout/shape/printer.h"

namespace hlolayout {

std::string ProgramShape::ToString(bool print_layout) const {
  std::string out = "(";
  for (size_t i = 0; i < parameters.size(); ++i) {
    if (i > 0) out.append(", ");
    out.append(i < parameter_names.size() ? parameter_names[i] : "(unknown)");
    out.append(": ");
    AppendShape(&out, parameters[i], print_layout);
  }
  out.append(") -> ");
  AppendShape(&out, result, print_layout);
  return out;
}

}  // namespace hlolayout
