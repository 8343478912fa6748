// A main for the fuzz targets in builds without libFuzzer: feeds the target
// every file named on the command line, or found (recursively) in a folder
// named there, one call per file. A target reports a bug by crashing, so
// replaying the seeds and the kept crash files under the ordinary and the
// sanitizer builds turns them into regression tests.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size);

namespace {

namespace fs = std::filesystem;

// Sorted, so that a failing replay names the same file every time.
std::vector<fs::path> inputs_of(const fs::path& argument) {
  std::vector<fs::path> inputs;
  if (fs::is_directory(argument)) {
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(argument)) {
      if (entry.is_regular_file()) inputs.push_back(entry.path());
    }
  } else if (fs::exists(argument)) {
    inputs.push_back(argument);
  }
  std::sort(inputs.begin(), inputs.end());
  return inputs;
}

}  // namespace

int main(int argc, char** argv) {
  std::size_t replayed = 0;
  for (int i = 1; i < argc; ++i) {
    for (const fs::path& input : inputs_of(argv[i])) {
      std::ifstream file(input, std::ios::binary);
      const std::string bytes((std::istreambuf_iterator<char>(file)),
                              std::istreambuf_iterator<char>());
      if (!file.good() && !file.eof()) {
        std::cerr << argv[0] << ": cannot read " << input.string() << "\n";
        return 1;
      }
      // Named before the call: a crash then shows which input it was.
      std::cerr << "replaying " << input.string() << "\n";
      LLVMFuzzerTestOneInput(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      ++replayed;
    }
  }
  std::cerr << "replayed " << replayed << " inputs\n";
  // No input at all means the folders were misnamed: that must not pass.
  return replayed > 0 ? 0 : 1;
}
