// Every subcommand and batch op of `hlolayout`. A feature adds its Command
// and BatchOps in its own file and lists them here.
#include "cli/command.h"

namespace hlolayout::cli {

extern const Command kExplainCommand;
extern const Command kPrintCommand;
extern const Command kBatchCommand;

extern const BatchOp kPrintBatchOp;

namespace {

const Command* const kCommands[] = {
    &kExplainCommand,
    &kPrintCommand,
    &kBatchCommand,
};

const BatchOp* const kBatchOps[] = {
    &kPrintBatchOp,
};

}  // namespace

absl::Span<const Command* const> AllCommands() { return kCommands; }
absl::Span<const BatchOp* const> AllBatchOps() { return kBatchOps; }

}  // namespace hlolayout::cli
