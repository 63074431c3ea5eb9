// Every subcommand and batch op of `hlolayout`. A feature adds its Command
// and BatchOps in its own file and lists them here.
#include "hlolayout/cli/command.h"

namespace hlolayout::cli {

extern const Command kExplainCommand;
extern const Command kPrintCommand;
extern const Command kBatchCommand;
extern const Command kGridCommand;
extern const Command kCuteCommand;
extern const Command kReportCommand;
extern const Command kIndexCommand;
extern const Command kElementCommand;
extern const Command kTilingCommand;
extern const Command kRelayoutCommand;
extern const Command kDrawCommand;
extern const Command kMemoryCommand;
extern const Command kTritonCommand;
extern const Command kTtnnCommand;
extern const Command kVerifyCommand;

extern const BatchOp kPrintBatchOp;
extern const BatchOp kGridShardBatchOp;
extern const BatchOp kGridLocateBatchOp;
extern const BatchOp kCuteBatchOp;
extern const BatchOp kIndexBatchOp;
extern const BatchOp kElementBatchOp;
extern const BatchOp kSizeBatchOp;
extern const BatchOp kBytesBatchOp;

namespace {

// In the order `hlolayout --help` lists them.
const Command* const kCommands[] = {
    &kExplainCommand, &kPrintCommand, &kIndexCommand,    &kElementCommand,
    &kTilingCommand,  &kDrawCommand,  &kReportCommand,   &kCuteCommand,
    &kGridCommand,    &kBatchCommand, &kRelayoutCommand, &kMemoryCommand,
    &kTritonCommand,  &kTtnnCommand,  &kVerifyCommand,
};

const BatchOp* const kBatchOps[] = {
    &kPrintBatchOp, &kGridShardBatchOp, &kGridLocateBatchOp, &kCuteBatchOp,
    &kIndexBatchOp, &kElementBatchOp,   &kSizeBatchOp,       &kBytesBatchOp,
};

}  // namespace

absl::Span<const Command* const> AllCommands() { return kCommands; }
absl::Span<const BatchOp* const> AllBatchOps() { return kBatchOps; }

}  // namespace hlolayout::cli
