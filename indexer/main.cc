// quarry-index: builds or updates a Quarry index from folders of .txt
// articles and JSON Lines corpora.
#include <fcntl.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <iostream>
#include <string_view>

#include "app/common/exit_status.h"
#include "app/indexing/index_command.h"
#include "app/indexing/index_completion.h"
#include "indexer/index_command_line.h"

namespace {

constexpr char kProgram[] = "quarry-index";

std::atomic<bool> interrupted{false};
// The writing end of a pipe that wakes a live index waiting for input.
int wake_pipe = -1;

extern "C" void on_interrupt(int) {
  interrupted.store(true);
  if (wake_pipe >= 0) {
    const int saved = errno;
    [[maybe_unused]] const ssize_t written = write(wake_pipe, "", 1);
    errno = saved;
  }
  // A second signal ends the program at once.
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
}

// SIGINT and SIGTERM cancel the run, which commits what it read; a live
// index is woken to see it.
void cancel_on_signals(quarry::IndexCommand& command) {
  if (command.watch || command.read_stdin) {
    int ends[2];
    if (pipe2(ends, O_CLOEXEC | O_NONBLOCK) == 0) {
      command.wake_fd = ends[0];
      wake_pipe = ends[1];
    }
  }
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  command.index.cancel = &interrupted;
}

// Parse, then run what was asked for; returns the exit status.
int run(int argc, char** argv) {
  CLI::App app{"", kProgram};
  // One line naming the program, the fault and how to ask for more.
  app.failure_message([](const CLI::App*, const CLI::Error& error) {
    return std::string(kProgram) + ": " + error.what() + " (usage: " + kProgram +
           " [OPTIONS] PATH...; " + kProgram + " --help lists the options)\n";
  });
  const quarry::IndexCommandLine command_line(app);
  quarry::IndexCommand command;
  try {
    app.parse(argc, argv);
    command = command_line.command();
  } catch (const CLI::ParseError& error) {
    return app.exit(error) == 0 ? int{quarry::kExitSuccess} : int{quarry::kExitUsage};
  }
  // A snapshot interrupted leaves no DEST, only DEST.partial-XXXXXX.
  if (command.snapshot.empty()) cancel_on_signals(command);
  command.progress = !command.quiet && isatty(STDERR_FILENO);
  return quarry::run_index_command(command, kProgram, std::cerr);
}

}  // namespace

int main(int argc, char** argv) {
  // What the build installs beside the program, written from the option
  // table; left out of the help, which it documents.
  if (argc == 3 && std::string_view(argv[1]) == "--generate") {
    return quarry::write_index_completion(argv[2], std::cout, std::cerr, kProgram);
  }
  return quarry::run_reporting_errors(kProgram, std::cerr, quarry::InputErrorIs::kUsage,
                                      [&] { return run(argc, argv); });
}
