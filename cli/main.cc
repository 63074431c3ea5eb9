// hlolayout: where every element of an XLA array lives in memory.
//
//   hlolayout                      explains an example shape
//   hlolayout --help               lists the commands
//   hlolayout COMMAND --help       explains one command
#include <unistd.h>

#include <iostream>
#include <string>
#include <vector>

#include "hlolayout/cli/dispatch.h"
#include "hlolayout/cli/heap.h"
#include "hlolayout/cli/input.h"

int main(int argc, char** argv) {
  hlolayout::cli::UseHugePagesForTheHeap();
  hlolayout::cli::ExitOnOutOfMemory();
  std::ios::sync_with_stdio(false);
  std::vector<std::string> args(argv + 1, argv + argc);
  hlolayout::cli::IoContext io{std::cin, std::cout, std::cerr,
                               /*in_fd=*/STDIN_FILENO, /*exits_after=*/true};
  const int status = hlolayout::cli::Dispatch(args, io);
  std::cout.flush();
  return status;
}
