// Sorting a codec's stderr chatter into damage (the file fails) and notes (shown).
#include <gtest/gtest.h>

#include "gpufilter/io/codec_messages.hpp"

namespace gpufilter::io::codec_messages_test {
namespace {

TEST(CodecMessages, NothingPrintedIsNoComplaint) {
  const CodecComplaints complaints = sort_codec_messages("");
  EXPECT_TRUE(complaints.damage.empty());
  EXPECT_TRUE(complaints.notes.empty());
}

TEST(CodecMessages, DamageToThePixelsFailsTheFile) {
  const CodecComplaints complaints =
      sort_codec_messages("Premature end of JPEG file\nCorrupt JPEG data: bad Huffman code\n");
  EXPECT_EQ(complaints.damage, "Premature end of JPEG file; Corrupt JPEG data: bad Huffman code");
  EXPECT_TRUE(complaints.notes.empty());
}

TEST(CodecMessages, MetadataComplaintsAreNotes) {
  const CodecComplaints complaints = sort_codec_messages(
      "libpng warning: iCCP: known incorrect sRGB profile\r\n"
      "Warning: unknown JFIF revision number 3.01\n"
      "libpng warning: tEXt: invalid keyword\n");
  EXPECT_TRUE(complaints.damage.empty()) << complaints.damage;
  EXPECT_EQ(complaints.notes, (std::vector<std::string>{"libpng warning: iCCP: known incorrect sRGB profile",
                                                         "Warning: unknown JFIF revision number 3.01",
                                                         "libpng warning: tEXt: invalid keyword"}));
}

// A critical chunk (upper-case first letter) or a warning without a chunk name concerns
// the pixels; so does anything the rules do not know.
TEST(CodecMessages, CriticalChunksAndUnknownLinesAreDamage) {
  EXPECT_FALSE(sort_codec_messages("libpng warning: IDAT: Too much image data\n").damage.empty());
  EXPECT_FALSE(sort_codec_messages("libpng warning: Image width exceeds user limit\n").damage.empty());
  EXPECT_FALSE(sort_codec_messages("something else entirely").damage.empty());
}

}  // namespace
}  // namespace gpufilter::io::codec_messages_test
