// testing/random_hlo.h: random scheduled HLO modules, for tests that
// compare two ways of computing the memory analysis
// (memory/replay_shortcuts_test.cc).
//
// What they hold: while loops (conditions and bodies reading the state
// through `%name#N` operands or explicit get-tuple-elements; bodies and
// conditions sometimes shared by several loops), conditionals (a
// predicate and two branches, or an index and one to three), calls,
// fusions (some updating a parameter in place, through a bitcast or not,
// by dynamic-update-slice or scatter, some with a tuple root), custom
// calls with output_to_operand_aliasing, copy-start/copy-done,
// async-start/async-done, reduces running an embedded computation (which
// a call sometimes runs too), tuples, constants, control predecessors,
// op_name metadata, S(1) and tiled layouts, parameters out of order,
// input_output_alias, instructions after ROOT; and a few modules the
// analysis refuses (unscheduled, unknown operands, `#N` past a tuple's
// end, loops whose body does not return the state).
#ifndef HLOLAYOUT_TESTING_RANDOM_HLO_H_
#define HLOLAYOUT_TESTING_RANDOM_HLO_H_

#include <cstdint>
#include <string>

namespace hlolayout {

// The text of a random module; the same seed gives the same text.
std::string RandomScheduledModule(uint64_t seed);

// A scheduled module whose entry `e` calls c0, which calls c1, ... down to
// c{depth-2}: calls nested `depth` computations deep (the limits of
// memory/live_range.h, kMaxCallDepth).
std::string CallChainModule(int depth);

}  // namespace hlolayout

#endif  // HLOLAYOUT_TESTING_RANDOM_HLO_H_
