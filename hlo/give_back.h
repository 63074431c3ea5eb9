// hlo/give_back.h: the memory of a module's operand lists given back once
// a caller has read them for the last time, for a program that holds a
// large module while it builds its own graph of it (`hlolayout memory`
// gives back 15 MiB of a 75 MB dump's lists; its peak falls by 8-9 MiB).
//
//   ENTRY %main (p: f32[8]) -> f32[8] {
//     %p = f32[8]{0} parameter(0)
//     ROOT %n = f32[8]{0} negate(f32[8]{0} %p)
//   }
//
//   GiveBackOperandLists(&module, {static_cast<int32_t>(module.entry_index)});
//   module.entry().instructions[1].operands().empty();  // true
//   module.entry().instructions[1].name();               // "n", as before
//
// Preconditions: no instruction outside the computations given views the
// same list as one inside them (the reader never makes such a module; a
// copy of a module shares its stores, which this call then only empties).
#ifndef HLOLAYOUT_HLO_GIVE_BACK_H_
#define HLOLAYOUT_HLO_GIVE_BACK_H_

#include <cstdint>

#include "absl/types/span.h"
#include "hlolayout/hlo/module.h"

namespace hlolayout {

// Empties the operand lists of the instructions of `module`'s computations
// `computations` (indices into module->computations; one out of range is
// API misuse, checked): their operands() are then empty, and nothing else
// changes. The whole memory pages that held only those lists go back to the
// system when the module alone owns its list stores (HloModule::lists; a
// copy of the module shares them: then the lists are only emptied).
// It writes nothing else of the module: another thread may read the rest
// meanwhile (the memory analysis does, MemoryAnalysisOptions::operands_read).
void GiveBackOperandLists(HloModule* module,
                          absl::Span<const int32_t> computations);

}  // namespace hlolayout

#endif  // HLOLAYOUT_HLO_GIVE_BACK_H_
