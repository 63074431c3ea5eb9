// util/bytes.h: byte counts in words, in the three styles the project
// prints (one implementation for every room).
//
//   ShortBytes(20480)        -> "20.0 KiB"          (tables)
//   BytesWithTotal(20480)    -> "20.0 KiB (20480 B)" (report text)
//   BytesWithUnit(22056980)  -> "21.04 MiB (22,056,980 bytes)" (memory text)
//   CompactBytes(1536)       -> "1.5K"              (picture cell labels)
//   PercentOf(512, 2048)     -> "25.0%"             (a part of a total)
//
// Below 1 KiB: "512 B", "512 B", "512 bytes", "512B". Units are powers of
// 1024 up to EiB (CompactBytes: up to G). XLA's own HumanReadableNumBytes
// ("25.01MiB"), which the texts of XLA's dump files need exactly, stays with
// them (memory/).
#ifndef HLOLAYOUT_UTIL_BYTES_H_
#define HLOLAYOUT_UTIL_BYTES_H_

#include <cstdint>
#include <string>

namespace hlolayout {

// "512 B", "20.0 KiB", "1.2 GiB". Negative counts print as their digits.
std::string ShortBytes(int64_t bytes);

// "512 B", "20.0 KiB (20480 B)".
std::string BytesWithTotal(int64_t bytes);

// "1,023 bytes", "-1,023 bytes", "21.04 MiB (22,056,980 bytes)"; the sign
// kept for negative counts.
std::string BytesWithUnit(int64_t bytes);

// "96B", "1.5K", "172K", "2M", "1.4M", "3G": a count in a few characters
// (binary units, one decimal below 10 of a unit, none from 10 on; G is the
// largest unit: "8589934592G" for INT64_MAX), for a picture's cell labels.
// Negative counts print as their digits and "B".
std::string CompactBytes(int64_t bytes);

// `part` as a percentage of `whole`, one decimal: "25.0%"; "0.0%" when
// `whole` is 0.
std::string PercentOf(int64_t part, int64_t whole);

}  // namespace hlolayout

#endif  // HLOLAYOUT_UTIL_BYTES_H_
