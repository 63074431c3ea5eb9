#include "hlolayout/cli/dispatch.h"

#include <algorithm>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "hlolayout/version.h"

namespace hlolayout::cli {
namespace {

const Command* FindCommand(absl::string_view name) {
  for (const Command* command : AllCommands()) {
    if (command->name == name) return command;
  }
  return nullptr;
}

std::string HelpOf(const Command& command) {
  return command.help_builder != nullptr ? command.help_builder()
                                         : std::string(command.help);
}

void PrintUsage(std::ostream& out) {
  out << "usage: hlolayout COMMAND [ARGS...]\n"
         "\n"
         "Reads XLA HLO shapes and layouts and says where every element "
         "lives.\n"
         "\n"
         "commands:\n";
  size_t width = 0;
  for (const Command* command : AllCommands()) {
    width = std::max(width, command->name.size());
  }
  for (const Command* command : AllCommands()) {
    out << "  " << command->name
        << std::string(width + 2 - command->name.size(), ' ')
        << command->summary << "\n";
  }
  out << "\n'hlolayout COMMAND --help' explains a command. With no arguments,\n"
         "hlolayout explains the example shape "
      << kExampleShape << ".\n";
  out << "'hlolayout --version' prints the version ("
      << HLOLAYOUT_VERSION_STRING << ").\n";
}

}  // namespace

int Dispatch(const std::vector<std::string>& args, IoContext& io) {
  if (args.empty()) {
    const Command* explain = FindCommand("explain");
    const int status = explain->run({kExampleShape}, io);
    io.out << "\nThis was 'hlolayout explain " << kExampleShape
           << "'.\nRun 'hlolayout --help' for every command.\n";
    return status;
  }
  const std::string& name = args[0];
  if (name == "--version" && args.size() == 1) {
    io.out << "hlolayout " << HLOLAYOUT_VERSION_STRING << "\n";
    return 0;
  }
  if (name == "--help" || name == "-h" || name == "help") {
    if (args.size() > 1 && FindCommand(args[1]) != nullptr) {
      io.out << HelpOf(*FindCommand(args[1]));
      return 0;
    }
    PrintUsage(io.out);
    return 0;
  }
  const Command* command = FindCommand(name);
  if (command == nullptr) {
    io.err << "hlolayout: unknown command '" << name
           << "'; 'hlolayout --help' lists the commands\n";
    return 2;
  }
  std::vector<std::string> rest(args.begin() + 1, args.end());
  for (size_t i = 0; i < rest.size(); ++i) {
    if (rest[i] == "--" || (command->has_subcommands && i > 0)) break;
    if (rest[i] == "--help" || rest[i] == "-h") {
      io.out << HelpOf(*command);
      return 0;
    }
  }
  return command->run(rest, io);
}

}  // namespace hlolayout::cli
