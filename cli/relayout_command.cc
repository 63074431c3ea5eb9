// hlolayout relayout: move an array's bytes from one layout to another
// (relayout/relayout.h), raw binary or NumPy .npy files.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "hlolayout/answers/relayout.h"
#include "hlolayout/cli/args.h"
#include "hlolayout/cli/command.h"
#include "hlolayout/cli/input.h"
#include "hlolayout/layout/packing.h"
#include "hlolayout/parser/shape_parser.h"

namespace hlolayout::cli {
namespace {

constexpr absl::string_view kHelp =
    R"(usage: hlolayout relayout [--from SHAPE] --to SHAPE [--fill BYTE]
                          [--threads N] [--packing low-first|high-first]
                          [--verbose] INPUT OUTPUT

Copies the array in INPUT, laid out as --from, into OUTPUT laid out as
--to: tiles, untiles, retiles, transposes, packs and unpacks sub-byte types.
Both shapes must have the same element type and dimensions; their layouts
may differ in anything (minor_to_major, tiles with `*`, L(n), E(n)).

INPUT and OUTPUT are raw binary files, or - for standard input/output.
INPUT must hold at least the byte size of --from (extra bytes are ignored);
OUTPUT gets exactly the byte size of --to, every padding byte set to --fill.
On error nothing is written (no partial OUTPUT file).

NumPy files: an INPUT ending in .npy (a C-contiguous array) may omit --from:
it is then the array's dimensions, row-major, with the element type of its
dtype (b1 f2 f4 f8 i1 i2 i4 i8 u1 u2 u4 u8 c8 c16, little-endian). With
--from, any dtype of the element's unpacked byte width is accepted (bf16 as
<u2, <i2 or <V2; s4/u4/s2/u2/f8 types as one byte per element, |i1, |u1 or
|V1), and --from must be row-major with the same dimensions. An OUTPUT
ending in .npy needs a row-major --to; bf16 is written as <u2, sub-byte and
f8 types as one byte per element (|i1 signed, |u1 otherwise).

flags:
  --from SHAPE   layout of INPUT (optional for .npy input)
  --to SHAPE     layout of OUTPUT
  --fill BYTE    padding byte, 0..255 or 0x00..0xff (default 0)
  --threads N    threads (default 0: the machine's cores; 1: one thread)
  --packing O    bit order inside E(n)-packed bytes: low-first (default,
                 today's XLA) or high-first (older XLA's PackIntN)
  --verbose      print the plan to standard error

examples:
  hlolayout relayout --from 'f32[256,512]{1,0}' --to 'f32[256,512]{1,0:T(8,128)}' in.bin out.bin
  hlolayout relayout --to 'f32[64,64]{1,0:T(32,32)(16,16)}' weights.npy tt_tiles.bin
  hlolayout relayout --from 's4[8]{0}' --to 's4[8]{0:E(4)}' - - < unpacked.bin > packed.bin
)";

// A .npy header: dtype text, dimensions, and where the data starts.
struct Npy {
  std::string descr;
  std::vector<int64_t> dims;
  size_t data_offset = 0;
};

absl::StatusOr<std::string> DictValue(absl::string_view dict,
                                      absl::string_view key) {
  const std::string k = absl::StrCat("'", key, "'");
  size_t pos = dict.find(k);
  if (pos == absl::string_view::npos) {
    return absl::InvalidArgumentError(absl::StrCat("npy header has no ", k));
  }
  pos = dict.find(':', pos + k.size());
  if (pos == absl::string_view::npos) {
    return absl::InvalidArgumentError("npy header is malformed");
  }
  absl::string_view rest =
      absl::StripLeadingAsciiWhitespace(dict.substr(pos + 1));
  size_t end;
  if (absl::StartsWith(rest, "(")) {
    end = rest.find(')');
    if (end == absl::string_view::npos) {
      return absl::InvalidArgumentError("npy header is malformed");
    }
    return std::string(rest.substr(0, end + 1));
  }
  if (absl::StartsWith(rest, "'")) {
    end = rest.find('\'', 1);
    if (end == absl::string_view::npos) {
      return absl::InvalidArgumentError("npy header is malformed");
    }
    return std::string(rest.substr(1, end - 1));
  }
  end = rest.find_first_of(",}");
  return std::string(absl::StripAsciiWhitespace(rest.substr(0, end)));
}

absl::StatusOr<Npy> ParseNpy(absl::string_view bytes) {
  if (bytes.size() < 10 || bytes.substr(0, 6) != "\x93NUMPY") {
    return absl::InvalidArgumentError("not a .npy file (no \\x93NUMPY magic)");
  }
  const int major = static_cast<uint8_t>(bytes[6]);
  size_t header_len, start;
  if (major == 1) {
    header_len = static_cast<uint8_t>(bytes[8]) |
                 (static_cast<size_t>(static_cast<uint8_t>(bytes[9])) << 8);
    start = 10;
  } else if (major == 2 || major == 3) {
    if (bytes.size() < 12) return absl::InvalidArgumentError("short npy file");
    header_len = 0;
    for (int i = 3; i >= 0; --i) {
      header_len = (header_len << 8) | static_cast<uint8_t>(bytes[8 + i]);
    }
    start = 12;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("unsupported npy version ", major));
  }
  if (bytes.size() < start + header_len) {
    return absl::InvalidArgumentError("npy header is truncated");
  }
  const absl::string_view dict(bytes.data() + start, header_len);
  Npy npy;
  npy.data_offset = start + header_len;
  absl::StatusOr<std::string> descr = DictValue(dict, "descr");
  if (!descr.ok()) return descr.status();
  npy.descr = *descr;
  absl::StatusOr<std::string> fortran = DictValue(dict, "fortran_order");
  if (!fortran.ok()) return fortran.status();
  if (*fortran != "False") {
    return absl::InvalidArgumentError(
        "npy array is Fortran-ordered; only C-contiguous arrays are read");
  }
  absl::StatusOr<std::string> shape = DictValue(dict, "shape");
  if (!shape.ok()) return shape.status();
  absl::string_view inner = *shape;
  inner = absl::StripPrefix(absl::StripSuffix(inner, ")"), "(");
  for (absl::string_view part : absl::StrSplit(inner, ',')) {
    part = absl::StripAsciiWhitespace(part);
    if (part.empty()) continue;
    int64_t d;
    if (!absl::SimpleAtoi(part, &d) || d < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("npy shape has a bad dimension '", part, "'"));
    }
    npy.dims.push_back(d);
  }
  return npy;
}

// The element type a standard dtype names, or an error.
absl::StatusOr<PrimitiveType> TypeOfDescr(absl::string_view d) {
  struct Entry {
    const char* descr;
    PrimitiveType type;
  };
  static const Entry kTypes[] = {
      {"|b1", PRED}, {"<f2", F16},   {"<f4", F32}, {"<f8", F64},
      {"|i1", S8},   {"<i2", S16},   {"<i4", S32}, {"<i8", S64},
      {"|u1", U8},   {"<u2", U16},   {"<u4", U32}, {"<u8", U64},
      {"<c8", C64},  {"<c16", C128}, {"<i1", S8},  {"<u1", U8}};
  for (const Entry& e : kTypes) {
    if (d == e.descr) return e.type;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "npy dtype '", d, "' has no element type of its own; give --from"));
}

// Byte width a dtype text stores (its trailing number; complex c8/c16 are
// the total), for checking against --from. Big-endian is rejected.
absl::StatusOr<int> DescrWidth(absl::string_view d) {
  if (d.size() < 3 || d[0] == '>') {
    return absl::InvalidArgumentError(
        absl::StrCat("npy dtype '", d, "' is not little-endian or is unknown"));
  }
  int w;
  if (!absl::SimpleAtoi(d.substr(2), &w)) {
    return absl::InvalidArgumentError(
        absl::StrCat("npy dtype '", d, "' is not a plain dtype"));
  }
  return w;
}

bool IsRowMajor(const Shape& s) {
  if (!s.has_layout()) return true;
  const Layout& l = s.layout();
  if (!l.tiles().empty() || l.tail_padding_alignment_in_elements() != 1) {
    return false;
  }
  if (l.element_size_in_bits() != 0 &&
      l.element_size_in_bits() != 8 * ByteWidth(s.element_type())) {
    return false;
  }
  for (int64_t i = 0; i < static_cast<int64_t>(l.minor_to_major().size());
       ++i) {
    if (l.minor_to_major(i) != s.rank() - 1 - i) return false;
  }
  return true;
}

std::string DescrOf(PrimitiveType t) {
  switch (t) {
    case PRED:
      return "|b1";
    case F16:
      return "<f2";
    case F32:
      return "<f4";
    case F64:
      return "<f8";
    case S8:
      return "|i1";
    case S16:
      return "<i2";
    case S32:
      return "<i4";
    case S64:
      return "<i8";
    case U8:
      return "|u1";
    case U16:
      return "<u2";
    case U32:
      return "<u4";
    case U64:
      return "<u8";
    case C64:
      return "<c8";
    case C128:
      return "<c16";
    case BF16:
      return "<u2";
    default:
      if (ByteWidth(t) == 1) return IsSignedIntegralType(t) ? "|i1" : "|u1";
      return absl::StrCat("|V", ByteWidth(t));
  }
}

std::string NpyHeader(const Shape& s) {
  std::string shape = "(";
  for (int64_t d : s.dimensions()) absl::StrAppend(&shape, d, ",");
  if (s.rank() > 1) shape.pop_back();
  shape += ")";
  std::string dict =
      absl::StrCat("{'descr': '", DescrOf(s.element_type()),
                   "', 'fortran_order': False, 'shape': ", shape, ", }");
  // Pad with spaces so that magic + length + dict + '\n' is a multiple of 64.
  const size_t total = 10 + dict.size() + 1;
  dict.append((64 - total % 64) % 64, ' ');
  dict += '\n';
  std::string out = "\x93NUMPY";
  out += '\x01';
  out += '\x00';
  out += static_cast<char>(dict.size() & 0xFF);
  out += static_cast<char>((dict.size() >> 8) & 0xFF);
  return out + dict;
}

absl::StatusOr<Shape> ParseFlagShape(const std::string& text,
                                     absl::string_view flag) {
  absl::StatusOr<Shape> s = ParseShape(text);
  if (!s.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat(flag, ": ", s.status().message()));
  }
  return s;
}

// The output is made and written in pieces of this many bytes per thread
// (RelayoutPlan::RunInPieces): large enough that a write() costs little
// next to the copy, small enough to stay in the cache until it is written.
constexpr int64_t kPieceBytes = int64_t{1} << 20;

// Writes all of `bytes` to `fd` (write() may take less than asked).
absl::Status WriteAll(int fd, absl::string_view bytes) {
  while (!bytes.empty()) {
    const ssize_t n = write(fd, bytes.data(), bytes.size());
    if (n < 0) {
      if (errno == EINTR) continue;
      return absl::DataLossError(std::strerror(errno));
    }
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return absl::OkStatus();
}

// --fill, --threads and --packing.
absl::StatusOr<RelayoutOptions> ParseRelayoutOptions(const Args& args) {
  RelayoutOptions options;
  const std::string fill = args.Value("fill", "0");
  int fill_value;
  const bool hex = absl::StartsWithIgnoreCase(fill, "0x");
  if (!(hex ? absl::SimpleHexAtoi(fill.substr(2), &fill_value)
            : absl::SimpleAtoi(fill, &fill_value)) ||
      fill_value < 0 || fill_value > 255) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--fill must be a byte (0..255 or 0x00..0xff), got '", fill, "'"));
  }
  options.fill = static_cast<uint8_t>(fill_value);
  const std::string threads = args.Value("threads", "0");
  if (!absl::SimpleAtoi(threads, &options.threads) || options.threads < 0 ||
      options.threads > 1024) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--threads must be a number from 0 to 1024, got '", threads, "'"));
  }
  const std::string packing = args.Value("packing", "low-first");
  absl::optional<PackingOrder> order = PackingOrderFromName(packing);
  if (!order) {
    return absl::InvalidArgumentError(absl::StrCat(
        "--packing must be low-first or high-first, got '", packing, "'"));
  }
  options.packing = *order;
  return options;
}

// The source shape of a .npy INPUT (its header's, or --from checked
// against it) and where its data starts; --from for any other input.
absl::Status ReadNpyFrom(const Args& args, const std::string& input,
                         absl::string_view bytes, absl::StatusOr<Shape>& from,
                         size_t& data_offset) {
  if (absl::EndsWith(input, ".npy")) {
    absl::StatusOr<Npy> npy = ParseNpy(bytes);
    if (!npy.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat(input, ": ", npy.status().message()));
    }
    data_offset = npy->data_offset;
    absl::StatusOr<int> width = DescrWidth(npy->descr);
    if (!width.ok()) return width.status();
    if (!args.Has("from")) {
      absl::StatusOr<PrimitiveType> type = TypeOfDescr(npy->descr);
      if (!type.ok()) return type.status();
      from = Shape::MakeArray(*type, npy->dims);
    } else {
      if (!IsRowMajor(*from)) {
        return absl::InvalidArgumentError(
            absl::StrCat("--from ", from->ToString(true),
                         " must be row-major for a .npy input"));
      }
      if (std::vector<int64_t>(from->dimensions().begin(),
                               from->dimensions().end()) != npy->dims) {
        return absl::InvalidArgumentError(absl::StrCat(
            "--from ", from->ToString(), " does not match the .npy shape"));
      }
      const int want = from->element_type() == C64 ? 8
                       : from->element_type() == C128
                           ? 16
                           : ByteWidth(from->element_type());
      if (*width != want) {
        return absl::InvalidArgumentError(
            absl::StrCat("npy dtype '", npy->descr, "' has ", *width,
                         "-byte elements, --from has ", want));
      }
    }
  } else if (!args.Has("from")) {
    return absl::InvalidArgumentError(
        "--from is required unless INPUT is a .npy file");
  }
  return absl::OkStatus();
}

// Writes `header` and the relayout of `src` to OUTPUT ('-': standard
// output; an existing file that is not a regular one in place; a regular
// file through a temporary one renamed, no partial OUTPUT on failure).
absl::Status WriteRelayout(const std::string& output, const RelayoutPlan& plan,
                           const std::string& header,
                           absl::Span<const uint8_t> src, int64_t piece_bytes,
                           IoContext& io) {
  const RelayoutPlan* p = &plan;
  if (output == "-") {
    io.out.write(header.data(), header.size());
    absl::Status s =
        p->RunInPieces(src, piece_bytes, [&](absl::Span<const uint8_t> piece) {
          io.out.write(reinterpret_cast<const char*>(piece.data()),
                       piece.size());
          return io.out ? absl::OkStatus()
                        : absl::DataLossError("cannot write output");
        });
    io.out.flush();
    if (!s.ok()) return s;
    return io.out ? absl::OkStatus()
                  : absl::DataLossError("cannot write output");
  }
  const std::string path = ResolveUserPath(output);
  auto write_to = [&](int fd) -> absl::Status {
    absl::Status s = WriteAll(fd, header);
    if (!s.ok()) return s;
    return p->RunInPieces(
        src, piece_bytes, [fd](absl::Span<const uint8_t> piece) {
          return WriteAll(
              fd, absl::string_view(reinterpret_cast<const char*>(piece.data()),
                                    piece.size()));
        });
  };
  // An existing OUTPUT that is not a regular file (a device, a pipe) is
  // written in place: it is never replaced or created next to.
  struct stat st;
  if (stat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode)) {
    const int fd = open(path.c_str(), O_WRONLY | O_CLOEXEC);
    absl::Status s = fd < 0 ? absl::PermissionDeniedError(std::strerror(errno))
                            : write_to(fd);
    if (fd >= 0 && close(fd) != 0 && s.ok()) {
      s = absl::DataLossError(std::strerror(errno));
    }
    if (!s.ok()) {
      return absl::PermissionDeniedError(
          absl::StrCat("cannot write output '", output, "': ", s.message()));
    }
    return absl::OkStatus();
  }
  // A regular file is written to a temporary file next to OUTPUT, then
  // renamed: no partial OUTPUT on failure.
  const std::string tmp = path + ".hlolayout-tmp";
  const int fd =
      open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666);
  absl::Status s =
      fd < 0 ? absl::PermissionDeniedError(std::strerror(errno)) : write_to(fd);
  if (fd >= 0 && close(fd) != 0 && s.ok()) {
    s = absl::DataLossError(std::strerror(errno));
  }
  if (s.ok() && std::rename(tmp.c_str(), path.c_str()) != 0) {
    s = absl::PermissionDeniedError(std::strerror(errno));
  }
  if (!s.ok()) {
    if (fd >= 0) unlink(tmp.c_str());
    return absl::PermissionDeniedError(
        absl::StrCat("cannot write output file '", output, "': ", s.message()));
  }
  return absl::OkStatus();
}

int RunRelayout(const std::vector<std::string>& raw, IoContext& io) {
  absl::StatusOr<Args> args =
      ParseArgs(raw, {"verbose"}, {"from", "to", "fill", "threads", "packing"});
  if (!args.ok() || args->positional.size() != 2 || !args->Has("to")) {
    io.err << "hlolayout relayout: "
           << (args.ok() ? "expected --to SHAPE INPUT OUTPUT (see --help)"
                         : args.status().message())
           << "\n";
    return 2;
  }
  auto fail = [&](const absl::Status& s) {
    io.err << "hlolayout relayout: " << s.message() << "\n";
    return 1;
  };
  const std::string& input = args->positional[0];
  const std::string& output = args->positional[1];

  absl::StatusOr<RelayoutOptions> parsed = ParseRelayoutOptions(*args);
  if (!parsed.ok()) return fail(parsed.status());
  const RelayoutOptions& options = *parsed;

  absl::StatusOr<Shape> to = ParseFlagShape(args->Value("to", ""), "--to");
  if (!to.ok()) return fail(to.status());

  // The input: mapped when it is a regular file (no copy), else read
  // (standard input, pipes).
  absl::StatusOr<std::unique_ptr<InputText>> text = OpenInput(input, io);
  if (!text.ok()) return fail(text.status());  // "cannot open 'x': ..."
  const absl::string_view bytes = (*text)->view();
  size_t data_offset = 0;
  absl::StatusOr<Shape> from = absl::InvalidArgumentError("missing --from");
  if (args->Has("from")) {
    from = ParseFlagShape(args->Value("from", ""), "--from");
    if (!from.ok()) return fail(from.status());
  }
  if (absl::Status s = ReadNpyFrom(*args, input, bytes, from, data_offset);
      !s.ok()) {
    return fail(s);
  }
  const bool npy_out = absl::EndsWith(output, ".npy");
  if (npy_out && !IsRowMajor(*to)) {
    return fail(absl::InvalidArgumentError(absl::StrCat(
        "--to ", to->ToString(true), " must be row-major for a .npy output")));
  }

  absl::StatusOr<RelayoutPlan> plan =
      answers::AnswerRelayout({*from, *to, options});
  if (!plan.ok()) return fail(plan.status());
  // Pieces of kPieceBytes per thread: a piece stays in the cache from the
  // copy to write(), and memory stays at the size of the input (mapped)
  // plus a piece. docs/relayout.md, "The command end to end".
  const int64_t piece_threads =
      options.threads > 0
          ? options.threads
          : std::max<int64_t>(1, std::thread::hardware_concurrency());
  const int64_t piece_bytes = kPieceBytes * piece_threads;
  if (args->Has("verbose")) {
    io.err << "hlolayout relayout: " << from->ToString(true) << " -> "
           << to->ToString(true) << ": " << plan->Describe()
           << "; written in pieces of at most "
           << plan->LargestPiece(piece_bytes) << " bytes\n";
  }
  const int64_t available = static_cast<int64_t>(bytes.size() - data_offset);
  if (available < plan->src_bytes()) {
    return fail(absl::InvalidArgumentError(
        absl::StrCat("input has ", available, " bytes of data, ",
                     from->ToString(true), " needs ", plan->src_bytes())));
  }
  const std::string header = npy_out ? NpyHeader(*to) : std::string();
  const absl::Span<const uint8_t> src = absl::MakeConstSpan(
      reinterpret_cast<const uint8_t*>(bytes.data()) + data_offset,
      plan->src_bytes());

  absl::Status written =
      WriteRelayout(output, *plan, header, src, piece_bytes, io);
  return written.ok() ? 0 : fail(written);
}

}  // namespace

extern const Command kRelayoutCommand = {
    "relayout",
    "move an array's bytes between two layouts (tile, untile, pack, .npy)",
    kHelp, RunRelayout};

}  // namespace hlolayout::cli
