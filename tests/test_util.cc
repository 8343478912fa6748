#include "tests/test_util.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <pty.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "quarry/error.h"

extern char** environ;

namespace quarry::testing {

TempDir::TempDir() {
  std::random_device random;
  const auto base = std::filesystem::temp_directory_path();
  for (int attempt = 0; attempt < 100; ++attempt) {
    auto candidate = base / ("quarry-test-" + std::to_string(random()));
    if (std::filesystem::create_directory(candidate)) {
      path_ = candidate;
      return;
    }
  }
  throw std::runtime_error("cannot create a temporary folder");
}

TempDir::~TempDir() {
  std::error_code ignored;
  // A test may have made files unreadable or folders unwritable on purpose.
  std::filesystem::permissions(path_, std::filesystem::perms::owner_all,
                               std::filesystem::perm_options::add, ignored);
  std::filesystem::remove_all(path_, ignored);
}

std::string to_json_lines(const std::vector<Article>& articles) {
  std::string out;
  for (const Article& article : articles) {
    nlohmann::json line = {
        {"id", article.id},     {"title", article.title},       {"body", article.body},
        {"date", article.date}, {"category", article.category}, {"source", article.source}};
    if (!article.language.empty()) line["language"] = article.language;
    out += line.dump() + "\n";
  }
  return out;
}

std::vector<Article> english_and_french_articles() {
  return {{"strike-en", "Rail strike halts the trains",
           "Rail workers walked out on Monday, and most trains stood still.", "2026-03-02",
           "transport", "Wire", "english"},
          {"strike-fr", "La grève arrête les trains",
           "Les cheminots ont cessé le travail lundi, et la plupart des trains sont restés à quai.",
           "2026-03-02", "transport", "Wire", "french"}};
}

std::vector<Article> recency_articles() {
  return {{"lighthouse-old", "Keepers meet", "Lighthouse keepers met at the harbour.", "2024-04-01",
           "", ""},
          {"lighthouse-new", "Keepers meet again",
           "Lighthouse keepers met at the harbour on a cold and windy evening last week.",
           "2024-04-29", "", ""},
          {"ferry", "Ferry late", "The ferry left the harbour an hour late.", "2024-04-30", "", ""},
          {"market", "Fish market", "The fish market opened early.", "2024-04-30", "", ""}};
}

std::string index_path(const TempDir& dir) { return (dir / "index").string(); }

void expect_same_article(const Article& actual, const Article& expected) {
  EXPECT_EQ(actual.id, expected.id);
  EXPECT_EQ(actual.title, expected.title);
  EXPECT_EQ(actual.body, expected.body);
  EXPECT_EQ(actual.date, expected.date);
  EXPECT_EQ(actual.category, expected.category);
  EXPECT_EQ(actual.source, expected.source);
}

IndexReport index_articles(const TempDir& dir, const std::vector<Article>& articles,
                           const std::string& synonyms) {
  write_file(dir / "articles.jsonl", to_json_lines(articles));
  IndexConfig config;
  config.db_path = index_path(dir);
  if (!synonyms.empty()) {
    write_file(dir / "synonyms.txt", synonyms);
    config.synonyms_file = (dir / "synonyms.txt").string();
  }
  return index_paths(config, {(dir / "articles.jsonl").string()});
}

void write_file(const std::filesystem::path& path, const std::string& contents) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream out(path, std::ios::binary);
  out << contents;
  if (!out) throw std::runtime_error("cannot write " + path.string());
}

void write_private_file(const std::filesystem::path& path, const std::string& contents) {
  write_file(path, contents);
  std::filesystem::permissions(
      path, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
}

std::vector<std::string> index_args(const std::filesystem::path& db,
                                    const std::vector<std::filesystem::path>& inputs,
                                    const std::vector<std::string>& options) {
  std::vector<std::string> args{"--db", db.string(), "--quiet"};
  args.insert(args.end(), options.begin(), options.end());
  for (const std::filesystem::path& input : inputs) args.push_back(input.string());
  return args;
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::string line_naming(const std::string& err, const std::string& where) {
  for (const std::string& line : lines_of(err)) {
    if (line.find(where + ": ") != std::string::npos) return line;
  }
  return "";
}

std::vector<std::string> sorted_ids(const SearchResult& result) {
  std::vector<std::string> ids;
  for (const Hit& hit : result.hits) ids.push_back(hit.id);
  std::sort(ids.begin(), ids.end());
  return ids;
}

std::set<std::string> hit_ids(const std::filesystem::path& db, const std::string& query) {
  const RunResult result =
      run_program(QUARRY_BIN, {"--db", db.string(), "--format", "json", "-n", "100", query});
  EXPECT_EQ(result.exit_code, 0) << query << ": " << result.err;
  std::set<std::string> ids;
  if (result.exit_code != 0) return ids;
  const nlohmann::json answer = nlohmann::json::parse(result.out);
  for (const nlohmann::json& hit : answer.at("hits")) {
    ids.insert(hit.at("id").get<std::string>());
  }
  return ids;
}

std::chrono::duration<double> time_allowed(std::chrono::duration<double> idle) {
#if defined(__SANITIZE_ADDRESS__)
  constexpr double kSanitizers = 10;
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
  constexpr double kSanitizers = 10;
#else
  constexpr double kSanitizers = 1;
#endif
#else
  constexpr double kSanitizers = 1;
#endif
  constexpr double kBusyCores = 3;
  return idle * kSanitizers * kBusyCores;
}

bool eventually(const std::function<bool()>& done, std::chrono::seconds patience,
                std::chrono::milliseconds interval) {
  const auto deadline = std::chrono::steady_clock::now() + time_allowed(patience);
  while (std::chrono::steady_clock::now() < deadline) {
    if (done()) return true;
    std::this_thread::sleep_for(interval);
  }
  return done();
}

std::size_t matches(const std::filesystem::path& db, const std::string& query) {
  try {
    return Searcher(db.string()).search(query).total;
  } catch (const Error&) {
    return 0;
  }
}

std::string id_query(const std::string& id) { return "id:\"" + id + "\""; }

std::unique_ptr<TempDir> SharedIndexTest::dir_;
std::unique_ptr<Searcher> SharedIndexTest::searcher_;

void SharedIndexTest::SetUpTestSuite() {
  const IndexReport report = index_suite_paths({QUARRY_CORPUS_DIR});
  ASSERT_EQ(report.added, 3u);
}

void SharedIndexTest::TearDownTestSuite() {
  searcher_.reset();
  dir_.reset();
}

const TempDir& SharedIndexTest::suite_dir() {
  if (!dir_) dir_ = std::make_unique<TempDir>();
  return *dir_;
}

IndexReport SharedIndexTest::index_suite_articles(const std::vector<Article>& articles,
                                                  const std::string& synonyms) {
  const IndexReport report = index_articles(suite_dir(), articles, synonyms);
  open_searcher();
  return report;
}

IndexReport SharedIndexTest::index_suite_paths(const std::vector<std::string>& paths) {
  IndexConfig config;
  config.db_path = db_path();
  const IndexReport report = index_paths(config, paths);
  open_searcher();
  return report;
}

void SharedIndexTest::open_searcher() { searcher_ = std::make_unique<Searcher>(db_path()); }

namespace {

// Whether `pid` sleeps in a call that waits for input with no time limit:
// a read of its standard input, or a select or poll without a timeout.
// False when it has ended. Throws std::runtime_error when /proc does not
// say (not Linux, or a sandbox that hides other processes' calls): the
// tests that ask cannot be run without knowing.
bool waits_for_input(pid_t pid) {
  const std::string proc = "/proc/" + std::to_string(pid);
  std::ifstream stat(proc + "/stat");
  std::string line;
  if (!std::getline(stat, line)) return false;  // reaped
  // The state follows the command name, which may hold spaces and ')'.
  const std::size_t name_end = line.rfind(") ");
  if (name_end == std::string::npos || name_end + 2 >= line.size()) {
    throw std::runtime_error("cannot parse " + proc + "/stat: " + line);
  }
  if (line[name_end + 2] != 'S') return false;

  // "number arg1 … arg6 sp pc" while in a call, "running" or "-1 …" else.
  std::ifstream syscall_file(proc + "/syscall");
  std::string first;
  if (!(syscall_file >> first)) {
    throw std::runtime_error("cannot read " + proc + "/syscall, which tells when a program " +
                             "waits for keys");
  }
  if (first == "running") return false;
  const long number = std::stol(first);
  if (number < 0) return false;  // asleep, but not in a call
  std::vector<unsigned long> args;
  for (std::string word; args.size() < 6 && syscall_file >> word;) {
    args.push_back(std::stoul(word, nullptr, 16));
  }
  if (args.size() < 6) throw std::runtime_error("cannot parse " + proc + "/syscall");
  // The time limit is a null pointer for these, negative for poll.
  bool waiting = (number == SYS_read && args[0] == STDIN_FILENO) ||
                 (number == SYS_pselect6 && args[4] == 0) || (number == SYS_ppoll && args[2] == 0);
#ifdef SYS_select
  waiting = waiting || (number == SYS_select && args[4] == 0);
#endif
#ifdef SYS_poll
  waiting = waiting || (number == SYS_poll && static_cast<int>(args[2]) < 0);
#endif
  return waiting;
}

// How many typed bytes the program on the terminal of `master` has not
// read yet. Throws std::runtime_error when the terminal cannot say.
int unread_keys(int master) {
  const char* const name = ptsname(master);
  const int terminal = name ? open(name, O_RDWR | O_NOCTTY | O_CLOEXEC) : -1;
  int count = 0;
  const bool known = terminal >= 0 && ioctl(terminal, FIONREAD, &count) == 0;
  if (terminal >= 0) close(terminal);
  if (!known) throw std::runtime_error("cannot ask the terminal what is left unread");
  return count;
}

}  // namespace

Pty::Pty(const std::string& program, const std::vector<std::string>& args,
         const std::vector<std::string>& env, unsigned short rows, unsigned short columns) {
  ProgramImage image(program, args, env);
  winsize size{};
  size.ws_row = rows;
  size.ws_col = columns;

  pid_ = forkpty(&master_, nullptr, nullptr, &size);
  if (pid_ < 0) throw std::runtime_error(std::string("forkpty failed: ") + std::strerror(errno));
  if (pid_ == 0) image.exec();
  fcntl(master_, F_SETFD, FD_CLOEXEC);
}

Pty::~Pty() {
  if (!reaped()) {
    kill(pid_, SIGKILL);
    int status = 0;
    waitpid(pid_, &status, 0);
  }
  close(master_);
}

void Pty::type(std::string_view keys) {
  while (!keys.empty()) {
    const ssize_t count = write(master_, keys.data(), keys.size());
    if (count < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error(std::string("cannot write to the terminal: ") +
                               std::strerror(errno));
    }
    keys.remove_prefix(count);
  }
}

void Pty::read_some(std::chrono::milliseconds patience) {
  pollfd fd{master_, POLLIN, 0};
  const int ready =
      poll(&fd, 1, static_cast<int>(std::max<std::chrono::milliseconds::rep>(patience.count(), 0)));
  if (ready <= 0) return;
  char buffer[4096];
  const ssize_t count = read(master_, buffer, sizeof buffer);
  if (count > 0) {
    output_.append(buffer, count);
  } else if (count == 0 || errno != EINTR) {
    // Linux answers EIO once every process has closed the terminal.
    closed_ = true;
  }
}

bool Pty::wait_for(std::string_view text, std::chrono::milliseconds patience) {
  using Clock = std::chrono::steady_clock;
  const auto deadline = Clock::now() + patience;
  for (;;) {
    const std::size_t at = output_.find(text, matched_);
    if (at != std::string::npos) {
      matched_ = at + text.size();
      return true;
    }
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (closed_ || left.count() <= 0) return false;
    read_some(left);
  }
}

bool Pty::wait_idle(std::chrono::milliseconds patience) {
  using Clock = std::chrono::steady_clock;
  // How often to look while the program works; reading its output in
  // between keeps it from blocking on a full terminal.
  constexpr std::chrono::milliseconds kSlice{5};
  const auto deadline = Clock::now() + patience;
  for (;;) {
    // A program still asleep in the call that began before the last keys
    // were typed has not seen them: it is idle only once they are read.
    if (unread_keys(master_) == 0 && waits_for_input(pid_)) return true;
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0 || closed_ || !running()) return false;
    read_some(std::min(left, kSlice));
  }
}

bool Pty::reaped() {
  if (exit_code_) return true;
  int status = 0;
  if (waitpid(pid_, &status, WNOHANG) != pid_) return false;
  exit_code_ = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return true;
}

bool Pty::running() { return !reaped(); }

std::optional<int> Pty::wait_exit(std::chrono::milliseconds patience) {
  using Clock = std::chrono::steady_clock;
  // Exiting closes the terminal, which wakes the read; the short slices
  // cover a program that leaves a child holding the terminal.
  constexpr std::chrono::milliseconds kSlice{20};
  const auto deadline = Clock::now() + patience;
  while (!reaped()) {
    const auto left =
        std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now());
    if (left.count() <= 0) return std::nullopt;
    if (closed_) {
      poll(nullptr, 0, static_cast<int>(std::min(left, kSlice).count()));
    } else {
      read_some(std::min(left, kSlice));
    }
  }
  return exit_code_;
}

namespace {

sockaddr_in loopback(unsigned port) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  return address;
}

// A socket bound to a port the system picks; -1 on failure.
int bind_any_loopback_port(unsigned* port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address = loopback(0);
  socklen_t size = sizeof address;
  if (bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&address), &size) != 0) {
    close(fd);
    return -1;
  }
  *port = ntohs(address.sin_port);
  return fd;
}

}  // namespace

bool accepts_connections(unsigned port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  const sockaddr_in address = loopback(port);
  const bool connected =
      connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  close(fd);
  return connected;
}

std::string find_xapian_tool(const std::string& name) {
  if (const char* path = std::getenv("PATH")) {
    const std::string folders = path;
    for (std::size_t start = 0; start <= folders.size();) {
      std::size_t colon = folders.find(':', start);
      if (colon == std::string::npos) colon = folders.size();
      const std::string candidate = folders.substr(start, colon - start) + "/" + name;
      if (colon > start && access(candidate.c_str(), X_OK) == 0) return candidate;
      start = colon + 1;
    }
  }
  if (const std::string usual = "/usr/bin/" + name; access(usual.c_str(), X_OK) == 0) return usual;
  throw std::runtime_error(name + " not found: install xapian-tools (make deps does)");
}

unsigned free_loopback_port() {
  unsigned port = 0;
  const int fd = bind_any_loopback_port(&port);
  if (fd < 0) throw std::runtime_error("cannot bind a loopback port");
  close(fd);
  return port;
}

TcpServer::TcpServer(const std::vector<std::string>& databases) {
  const std::string program = find_xapian_tool("xapian-tcpsrv");
  // The port may be taken between choosing and binding it: the server then
  // exits, and another port is tried.
  constexpr int kAttempts = 5;
  for (int attempt = 0; attempt < kAttempts; ++attempt) {
    port_ = free_loopback_port();
    std::vector<std::string> args{program,     "--quiet", "--interface",
                                  "127.0.0.1", "--port",  std::to_string(port_)};
    args.insert(args.end(), databases.begin(), databases.end());
    std::vector<char*> argv;
    for (std::string& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    posix_spawnattr_t attributes;
    posix_spawnattr_init(&attributes);
    posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
    posix_spawnattr_setpgroup(&attributes, 0);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    const int error =
        posix_spawn(&pid_, program.c_str(), &actions, &attributes, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    posix_spawnattr_destroy(&attributes);
    if (error != 0) throw std::runtime_error("cannot run " + program + ": " + std::strerror(error));

    const auto deadline = std::chrono::steady_clock::now() + kPatience;
    while (std::chrono::steady_clock::now() < deadline) {
      if (accepts_connections(port_)) return;
      int status = 0;
      if (waitpid(pid_, &status, WNOHANG) == pid_) break;  // exited: port taken?
      poll(nullptr, 0, 20);
    }
    stop();
  }
  throw std::runtime_error("xapian-tcpsrv does not accept connections");
}

TcpServer::~TcpServer() { stop(); }

std::string TcpServer::stub_line() const { return "remote 127.0.0.1:" + std::to_string(port_); }

void TcpServer::stop() {
  if (pid_ <= 0) return;
  kill(-pid_, SIGKILL);
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
}

void TcpServer::pause() {
  if (pid_ > 0) kill(-pid_, SIGSTOP);
}

void TcpServer::resume() {
  if (pid_ > 0) kill(-pid_, SIGCONT);
}

int listen_on_loopback(unsigned* port) {
  const int fd = bind_any_loopback_port(port);
  if (fd < 0 || listen(fd, 16) != 0) {
    if (fd >= 0) close(fd);
    throw std::runtime_error("cannot listen on loopback");
  }
  return fd;
}

int connect_to_loopback(unsigned port) {
  const int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  if (connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    close(fd);
    return -1;
  }
  const int on = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  return fd;
}

SilentListener::SilentListener() : fd_(listen_on_loopback(&port_)) {}

SilentListener::~SilentListener() { close(fd_); }

std::u32string to_u32(const std::string& utf8) {
  std::u32string text;
  for (std::size_t i = 0; i < utf8.size();) {
    const auto lead = static_cast<unsigned char>(utf8[i]);
    const int length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
    char32_t code = length == 1 ? lead : lead & (0x7F >> length);
    for (int k = 1; k < length && i + k < utf8.size(); ++k) {
      code = (code << 6) | (static_cast<unsigned char>(utf8[i + k]) & 0x3F);
    }
    text.push_back(code);
    i += length;
  }
  return text;
}

const std::vector<ScriptSample>& script_samples() {
  static const std::vector<ScriptSample> samples = {
      {"thai",
       "เมื่อวานฝนตกหนักในกรุงเทพฯ ทำให้น้ำท่วมหลายพื้นที่",
       {"ฝน", "ตก", "หนัก", "ฝนตก", "ฝนตกหนัก", "เมื่อวาน", "กรุงเทพ", "น้ำท่วม", "ท่วม", "พื้นที่"},
       "เมื่อวานฝนตกหนักในกรุงเทพฯ"},
      {"lao",
       "ມື້ວານນີ້ຝົນຕົກໜັກຢູ່ນະຄອນຫຼວງວຽງຈັນ",
       {"ຝົນ", "ຕົກ", "ໜັກ", "ຝົນຕົກ", "ຝົນຕົກໜັກ", "ມື້ວານນີ້", "ນະຄອນຫຼວງ", "ວຽງຈັນ"},
       "ຝົນຕົກໜັກຢູ່ນະຄອນຫຼວງວຽງຈັນ"},
      {"khmer",
       "កាលពីម្សិលមិញ ភ្លៀងធ្លាក់ខ្លាំងនៅរាជធានីភ្នំពេញ",
       {"ភ្លៀង", "ធ្លាក់", "ខ្លាំង", "ភ្លៀងធ្លាក់", "ម្សិលមិញ", "រាជធានី", "ភ្នំពេញ", "ភ្នំ", "ពេញ"},
       "ភ្លៀងធ្លាក់ខ្លាំងនៅរាជធានីភ្នំពេញ"},
      {"myanmar",
       "မနေ့က ရန်ကုန်မြို့တွင် မိုးသည်းထန်စွာရွာသွန်းခဲ့သည်",
       {"မနေ့က", "ရန်ကုန်", "မြို့", "မိုး", "သည်းထန်စွာ", "ရွာသွန်း"},
       "မိုးသည်းထန်စွာရွာသွန်းခဲ့သည်"},
      {"chinese",
       "我住在北京市中心，每天骑自行车上班。",
       {"北京", "北京市", "市中心", "中心", "每天", "自行车", "上班"},
       "我住在北京市中心"},
      {"japanese",
       "東京都庁舎は新宿区にあり、展望室は無料で公開されています。",
       {"東京", "東京都", "都庁", "庁舎", "新宿", "新宿区", "展望室", "無料", "公開"},
       "東京都庁舎は新宿区にあり"},
  };
  return samples;
}

}  // namespace quarry::testing
