// Host textures: Device::newTexture, the properties, replaceRegion and getBytes round trips
// for every supported pixel format, regions, mip levels, slices and 3D images, and the debug
// layer's checks (each negative asserts the report, and the texture stays unchanged).
#include "metal_test.h"

#include "runtime/debug_layer.h"
#include "runtime/pixel_formats.h"

#include <cstdint>
#include <string>
#include <vector>

namespace metalcpu::testing {
namespace {

using rt::DebugLayer;

class TextureTest : public MetalTest {
protected:
    void SetUp() override {
        MetalTest::SetUp();
        DebugLayer::setForTesting(DebugLayer::Mode::NSLog, [this](const std::string& line) { reports_.push_back(line); });
    }
    void TearDown() override {
        DebugLayer::setForTesting(DebugLayer::Mode::Off);
        MetalTest::TearDown();
    }

    /// A +1 texture of `type`; nullptr when the device refuses it.
    MTL::Texture* make(MTL::TextureType type, MTL::PixelFormat format, NS::UInteger width, NS::UInteger height,
                       NS::UInteger depth = 1, NS::UInteger levels = 1, NS::UInteger slices = 1,
                       MTL::StorageMode storage = MTL::StorageModeShared) {
        auto descriptor = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
        descriptor->setTextureType(type);
        descriptor->setPixelFormat(format);
        descriptor->setWidth(width);
        descriptor->setHeight(height);
        descriptor->setDepth(depth);
        descriptor->setMipmapLevelCount(levels);
        descriptor->setArrayLength(slices);
        descriptor->setStorageMode(storage);
        descriptor->setUsage(MTL::TextureUsageShaderRead | MTL::TextureUsageShaderWrite);
        return device_->newTexture(descriptor.get());
    }

    std::vector<std::string> reports_;
};

std::vector<std::uint8_t> pattern(std::size_t size, unsigned seed) {
    std::vector<std::uint8_t> bytes(size);
    for (std::size_t i = 0; i < size; ++i) bytes[i] = static_cast<std::uint8_t>(i * 31 + seed * 7 + 1);
    return bytes;
}

// Every format of the supported table, with its texel size.
const struct {
    MTL::PixelFormat format;
    unsigned bytesPerPixel;
} kFormats[] = {
    {MTL::PixelFormatR8Unorm, 1},       {MTL::PixelFormatR8Unorm_sRGB, 1},    {MTL::PixelFormatR8Snorm, 1},
    {MTL::PixelFormatR8Uint, 1},        {MTL::PixelFormatR8Sint, 1},          {MTL::PixelFormatR16Unorm, 2},
    {MTL::PixelFormatR16Snorm, 2},      {MTL::PixelFormatR16Uint, 2},         {MTL::PixelFormatR16Sint, 2},
    {MTL::PixelFormatR16Float, 2},      {MTL::PixelFormatRG8Unorm, 2},        {MTL::PixelFormatRG8Unorm_sRGB, 2},
    {MTL::PixelFormatRG8Snorm, 2},      {MTL::PixelFormatRG8Uint, 2},         {MTL::PixelFormatRG8Sint, 2},
    {MTL::PixelFormatR32Uint, 4},       {MTL::PixelFormatR32Sint, 4},         {MTL::PixelFormatR32Float, 4},
    {MTL::PixelFormatRG16Unorm, 4},     {MTL::PixelFormatRG16Snorm, 4},       {MTL::PixelFormatRG16Uint, 4},
    {MTL::PixelFormatRG16Sint, 4},      {MTL::PixelFormatRG16Float, 4},       {MTL::PixelFormatRGBA8Unorm, 4},
    {MTL::PixelFormatRGBA8Unorm_sRGB, 4}, {MTL::PixelFormatRGBA8Snorm, 4},    {MTL::PixelFormatRGBA8Uint, 4},
    {MTL::PixelFormatRGBA8Sint, 4},     {MTL::PixelFormatBGRA8Unorm, 4},      {MTL::PixelFormatBGRA8Unorm_sRGB, 4},
    {MTL::PixelFormatRG32Uint, 8},      {MTL::PixelFormatRG32Sint, 8},        {MTL::PixelFormatRG32Float, 8},
    {MTL::PixelFormatRGBA16Unorm, 8},   {MTL::PixelFormatRGBA16Snorm, 8},     {MTL::PixelFormatRGBA16Uint, 8},
    {MTL::PixelFormatRGBA16Sint, 8},    {MTL::PixelFormatRGBA16Float, 8},     {MTL::PixelFormatRGBA32Uint, 16},
    {MTL::PixelFormatRGBA32Sint, 16},   {MTL::PixelFormatRGBA32Float, 16},
};

// Test that the descriptor's shape comes back from the texture's properties, that a new
// texture is zero-filled, and that labels work as for buffers.
TEST_F(TextureTest, PropertiesFollowTheDescriptor) {
    MTL::Texture* texture = make(MTL::TextureType2DArray, MTL::PixelFormatRGBA16Float, 7, 5, 1, 3, 4,
                                 MTL::StorageModeManaged);
    ASSERT_NE(texture, nullptr);
    EXPECT_EQ(texture->textureType(), MTL::TextureType2DArray);
    EXPECT_EQ(texture->pixelFormat(), MTL::PixelFormatRGBA16Float);
    EXPECT_EQ(texture->width(), 7u);
    EXPECT_EQ(texture->height(), 5u);
    EXPECT_EQ(texture->depth(), 1u);
    EXPECT_EQ(texture->mipmapLevelCount(), 3u);
    EXPECT_EQ(texture->arrayLength(), 4u);
    EXPECT_EQ(texture->sampleCount(), 1u);
    EXPECT_EQ(texture->usage(), MTL::TextureUsageShaderRead | MTL::TextureUsageShaderWrite);
    EXPECT_EQ(texture->storageMode(), MTL::StorageModeManaged);
    EXPECT_EQ(texture->device(), device_);
    EXPECT_GE(texture->allocatedSize(), 7u * 5 * 4 * 8);
    texture->setLabel(NS::String::string("albedo", NS::UTF8StringEncoding));
    EXPECT_EQ(text(texture->label()), "albedo");
    std::vector<std::uint8_t> out(7 * 5 * 8, 0xee);
    texture->getBytes(out.data(), 7 * 8, 0, MTL::Region(0, 0, 7, 5), 0, 3);
    EXPECT_EQ(out, std::vector<std::uint8_t>(out.size(), 0));
    EXPECT_TRUE(reports_.empty());
    texture->release();
}

// Test that texture2DDescriptor asks for the full mip chain when mipmapped.
TEST_F(TextureTest, Texture2DDescriptorCountsTheMipChain) {
    MTL::TextureDescriptor* d = MTL::TextureDescriptor::texture2DDescriptor(MTL::PixelFormatR32Float, 100, 37, true);
    EXPECT_EQ(d->mipmapLevelCount(), 7u);
    EXPECT_EQ(d->textureType(), MTL::TextureType2D);
    MTL::Texture* texture = device_->newTexture(d);
    ASSERT_NE(texture, nullptr);
    EXPECT_EQ(texture->mipmapLevelCount(), 7u);
    texture->release();
}

// Test that bytes written with replaceRegion come back unchanged from getBytes, for every
// supported pixel format (through padded rows, so the strides matter).
TEST_F(TextureTest, RoundTripsEveryFormat) {
    for (const auto& f : kFormats) {
        SCOPED_TRACE(rt::pixelFormatName(f.format));
        MTL::Texture* texture = make(MTL::TextureType2D, f.format, 5, 3);
        ASSERT_NE(texture, nullptr);
        const NS::UInteger row = 5 * f.bytesPerPixel + 3 * f.bytesPerPixel; // padded
        std::vector<std::uint8_t> in = pattern(row * 3, f.bytesPerPixel);
        texture->replaceRegion(MTL::Region(0, 0, 5, 3), 0, in.data(), row);
        std::vector<std::uint8_t> out(5 * f.bytesPerPixel * 3);
        texture->getBytes(out.data(), 5 * f.bytesPerPixel, MTL::Region(0, 0, 5, 3), 0);
        for (unsigned y = 0; y < 3; ++y)
            for (unsigned b = 0; b < 5 * f.bytesPerPixel; ++b)
                ASSERT_EQ(out[y * 5 * f.bytesPerPixel + b], in[y * row + b]) << "row " << y << " byte " << b;
        texture->release();
    }
    EXPECT_TRUE(reports_.empty());
}

// Test that replacing a region changes only its texels.
TEST_F(TextureTest, ReplaceRegionTouchesOnlyTheRegion) {
    MTL::Texture* texture = make(MTL::TextureType2D, MTL::PixelFormatR32Uint, 9, 7);
    ASSERT_NE(texture, nullptr);
    std::vector<std::uint32_t> block(4 * 3, 0xabcd1234u);
    texture->replaceRegion(MTL::Region(2, 3, 4, 3), 0, block.data(), 4 * sizeof(std::uint32_t));
    std::vector<std::uint32_t> all(9 * 7, 7);
    texture->getBytes(all.data(), 9 * sizeof(std::uint32_t), MTL::Region(0, 0, 9, 7), 0);
    for (unsigned y = 0; y < 7; ++y)
        for (unsigned x = 0; x < 9; ++x) {
            const bool inside = x >= 2 && x < 6 && y >= 3 && y < 6;
            EXPECT_EQ(all[y * 9 + x], inside ? 0xabcd1234u : 0u) << x << "," << y;
        }
    // A sub-region read back on its own.
    std::vector<std::uint32_t> part(2 * 2, 1);
    texture->getBytes(part.data(), 2 * sizeof(std::uint32_t), MTL::Region(5, 5, 2, 2), 0);
    EXPECT_EQ(part, (std::vector<std::uint32_t>{0xabcd1234u, 0, 0, 0}));
    texture->release();
}

// Test that each mip level and each array slice has storage of its own, of the level's size.
TEST_F(TextureTest, LevelsAndSlicesAreSeparate) {
    MTL::Texture* texture = make(MTL::TextureType2DArray, MTL::PixelFormatR8Uint, 8, 4, 1, 4, 3);
    ASSERT_NE(texture, nullptr);
    const unsigned widths[4] = {8, 4, 2, 1}, heights[4] = {4, 2, 1, 1};
    for (unsigned level = 0; level < 4; ++level)
        for (unsigned slice = 0; slice < 3; ++slice) {
            std::vector<std::uint8_t> in(widths[level] * heights[level], std::uint8_t(level * 10 + slice + 1));
            texture->replaceRegion(MTL::Region(0, 0, widths[level], heights[level]), level, slice, in.data(),
                                   widths[level], 0);
        }
    for (unsigned level = 0; level < 4; ++level)
        for (unsigned slice = 0; slice < 3; ++slice) {
            std::vector<std::uint8_t> out(widths[level] * heights[level]);
            texture->getBytes(out.data(), widths[level], 0, MTL::Region(0, 0, widths[level], heights[level]), level,
                              slice);
            EXPECT_EQ(out, std::vector<std::uint8_t>(out.size(), std::uint8_t(level * 10 + slice + 1)))
                << "level " << level << " slice " << slice;
        }
    EXPECT_TRUE(reports_.empty());
    texture->release();
}

// Test that 3D textures copy whole images with bytesPerImage, and 1D textures take a
// bytesPerRow of 0.
TEST_F(TextureTest, ThreeDimensionalAndOneDimensionalCopies) {
    MTL::Texture* volume = make(MTL::TextureType3D, MTL::PixelFormatRG16Uint, 3, 2, 4);
    ASSERT_NE(volume, nullptr);
    const NS::UInteger row = 3 * 4, image = row * 2 + 8; // padded images
    std::vector<std::uint8_t> in = pattern(image * 4, 3);
    volume->replaceRegion(MTL::Region(0, 0, 0, 3, 2, 4), 0, 0, in.data(), row, image);
    std::vector<std::uint8_t> out(row * 2 * 4);
    volume->getBytes(out.data(), row, row * 2, MTL::Region(0, 0, 0, 3, 2, 4), 0, 0);
    for (unsigned z = 0; z < 4; ++z)
        for (unsigned b = 0; b < row * 2; ++b) ASSERT_EQ(out[z * row * 2 + b], in[z * image + b]);
    volume->release();

    MTL::Texture* line = make(MTL::TextureType1D, MTL::PixelFormatRGBA8Uint, 16, 1);
    ASSERT_NE(line, nullptr);
    std::vector<std::uint8_t> texels = pattern(16 * 4, 9), back(16 * 4);
    line->replaceRegion(MTL::Region(0, 16), 0, texels.data(), 0);
    line->getBytes(back.data(), 0, MTL::Region(0, 16), 0);
    EXPECT_EQ(back, texels);
    EXPECT_TRUE(reports_.empty());
    line->release();
}

// Test that a region outside the level is reported in Apple's style and copies nothing.
TEST_F(TextureTest, RegionOutsideTheTextureIsReported) {
    MTL::Texture* texture = make(MTL::TextureType2D, MTL::PixelFormatR8Uint, 8, 8, 1, 2);
    ASSERT_NE(texture, nullptr);
    std::vector<std::uint8_t> in(64, 9);
    texture->replaceRegion(MTL::Region(6, 0, 4, 2), 0, in.data(), 4);
    ASSERT_EQ(reports_.size(), 1u);
    EXPECT_EQ(reports_[0], "-[MTLDebugTexture replaceRegion:mipmapLevel:slice:withBytes:bytesPerRow:bytesPerImage:]"
                           ":1142: failed assertion `(origin.x + size.width)(10) must be <= width(8) at "
                           "mipmapLevel(0). region(origin(6, 0, 0), size(4, 2, 1)).'");
    texture->replaceRegion(MTL::Region(0, 0, 8, 8), 1, in.data(), 8); // level 1 is 4x4
    ASSERT_EQ(reports_.size(), 2u);
    EXPECT_NE(reports_[1].find("(origin.x + size.width)(8) must be <= width(4) at mipmapLevel(1)"), std::string::npos);
    texture->replaceRegion(MTL::Region(0, 0, 1, 1), 2, in.data(), 1);
    ASSERT_EQ(reports_.size(), 3u);
    EXPECT_NE(reports_[2].find("mipmapLevel(2) must be < mipmapLevelCount(2)."), std::string::npos);
    std::vector<std::uint8_t> out(64, 1);
    texture->getBytes(out.data(), 8, MTL::Region(0, 0, 8, 8), 0);
    EXPECT_EQ(out, std::vector<std::uint8_t>(64, 0)) << "a refused copy wrote texels";
    texture->release();
}

// Test that bytesPerRow below one row of the region, a slice beyond the array and CPU access
// to a private texture are reported.
TEST_F(TextureTest, StridesSlicesAndStorageAreChecked) {
    MTL::Texture* texture = make(MTL::TextureType2DArray, MTL::PixelFormatRGBA8Unorm, 8, 2, 1, 1, 2);
    ASSERT_NE(texture, nullptr);
    std::vector<std::uint8_t> in(8 * 4 * 2, 5);
    texture->replaceRegion(MTL::Region(0, 0, 8, 2), 0, 0, in.data(), 16, 0);
    ASSERT_EQ(reports_.size(), 1u);
    EXPECT_NE(reports_[0].find("failed assertion `bytesPerRow(16) must be >= (32).'"), std::string::npos);
    texture->replaceRegion(MTL::Region(0, 0, 8, 2), 0, 2, in.data(), 32, 0);
    ASSERT_EQ(reports_.size(), 2u);
    EXPECT_NE(reports_[1].find("slice(2) must be < arrayLength(2)."), std::string::npos);
    texture->release();

    MTL::Texture* hidden = make(MTL::TextureType2D, MTL::PixelFormatR32Float, 4, 4, 1, 1, 1, MTL::StorageModePrivate);
    ASSERT_NE(hidden, nullptr);
    std::vector<float> out(16);
    hidden->getBytes(out.data(), 16, MTL::Region(0, 0, 4, 4), 0);
    ASSERT_EQ(reports_.size(), 3u);
    EXPECT_NE(reports_[2].find("-[MTLDebugTexture getBytes:bytesPerRow:bytesPerImage:fromRegion:mipmapLevel:slice:]"),
              std::string::npos);
    EXPECT_NE(reports_[2].find("MTLResourceStorageModePrivate"), std::string::npos);
    hidden->release();
}

// Test that descriptors metalcpu cannot honour give nullptr and a report naming the problem,
// never a crash.
TEST_F(TextureTest, UnsupportedDescriptorsAreRefused) {
    EXPECT_EQ(make(MTL::TextureType2D, MTL::PixelFormatBC1_RGBA, 4, 4), nullptr);
    ASSERT_EQ(reports_.size(), 1u);
    EXPECT_NE(reports_[0].find("MTLTextureDescriptorInternal validateWithDevice:"), std::string::npos);
    EXPECT_NE(reports_[0].find("has pixelFormat MTLPixelFormat(130) that metalcpu does not support yet"),
              std::string::npos);
    EXPECT_EQ(make(MTL::TextureType2D, MTL::PixelFormatRGBA8Unorm, 0, 4), nullptr);
    EXPECT_NE(reports_.back().find("MTLTextureDescriptor has width of zero."), std::string::npos);
    EXPECT_EQ(make(MTL::TextureType2D, MTL::PixelFormatRGBA8Unorm, 16385, 1), nullptr);
    EXPECT_NE(reports_.back().find("has width (16385) greater than the maximum allowed size of 16384."),
              std::string::npos);
    EXPECT_EQ(make(MTL::TextureType2D, MTL::PixelFormatRGBA8Unorm, 8, 8, 1, 5), nullptr);
    EXPECT_NE(reports_.back().find("has mipmapLevelCount (5) greater than the maximum allowed value of 4."),
              std::string::npos);
    EXPECT_EQ(make(MTL::TextureType2D, MTL::PixelFormatRGBA8Unorm, 8, 8, 1, 1, 3), nullptr);
    EXPECT_NE(reports_.back().find("arrayLength (3) that must be 1 unless the texture is an array"), std::string::npos);
    EXPECT_EQ(make(MTL::TextureTypeCube, MTL::PixelFormatRGBA8Unorm, 8, 8), nullptr);
    EXPECT_NE(reports_.back().find("textureType(5)"), std::string::npos);
    EXPECT_EQ(reports_.size(), 6u);
}


// Test that a view shares its texture's memory: a slice and level range of a 2D array seen
// as a 2D texture, and the same bits under another format of the same size.
TEST_F(TextureTest, ViewsShareTheTexturesMemory) {
    MTL::Texture* array = make(MTL::TextureType2DArray, MTL::PixelFormatRGBA8Unorm, 8, 4, 1, 2, 3);
    ASSERT_NE(array, nullptr);
    std::vector<std::uint32_t> level1(4 * 2, 0x11223344u);
    array->replaceRegion(MTL::Region(0, 0, 4, 2), 1, 2, level1.data(), 16, 0);

    MTL::Texture* view = array->newTextureView(MTL::PixelFormatRGBA8Unorm, MTL::TextureType2D, NS::Range(1, 1),
                                               NS::Range(2, 1));
    ASSERT_NE(view, nullptr);
    EXPECT_EQ(view->textureType(), MTL::TextureType2D);
    EXPECT_EQ(view->width(), 4u);
    EXPECT_EQ(view->height(), 2u);
    EXPECT_EQ(view->mipmapLevelCount(), 1u);
    EXPECT_EQ(view->parentTexture(), array);
    EXPECT_EQ(view->parentRelativeLevel(), 1u);
    EXPECT_EQ(view->parentRelativeSlice(), 2u);
    std::vector<std::uint32_t> seen(8);
    view->getBytes(seen.data(), 16, MTL::Region(0, 0, 4, 2), 0);
    EXPECT_EQ(seen, level1);
    std::vector<std::uint32_t> written(8, 0xa5a5a5a5u);
    view->replaceRegion(MTL::Region(0, 0, 4, 2), 0, written.data(), 16);
    array->getBytes(seen.data(), 16, 0, MTL::Region(0, 0, 4, 2), 1, 2);
    EXPECT_EQ(seen, written) << "a write through the view reaches the texture";

    MTL::Texture* bits = array->newTextureView(MTL::PixelFormatR32Uint); // usage lacks PixelFormatView
    EXPECT_EQ(bits, nullptr);
    ASSERT_EQ(reports_.size(), 1u);
    EXPECT_NE(reports_[0].find("texture usage must include MTLTextureUsagePixelFormatView"), std::string::npos);
    EXPECT_EQ(array->newTextureView(MTL::PixelFormatRG8Unorm), nullptr);
    EXPECT_NE(reports_.back().find("pixelFormat (MTLPixelFormatRG8Unorm) is not compatible"), std::string::npos);
    EXPECT_EQ(array->newTextureView(MTL::PixelFormatRGBA8Unorm, MTL::TextureType2D, NS::Range(0, 1), NS::Range(0, 2)),
              nullptr);
    EXPECT_NE(reports_.back().find("slices(0, 2) must be inside arrayLength(3) and hold one slice"), std::string::npos);
    MTL::Texture* srgb = array->newTextureView(MTL::PixelFormatRGBA8Unorm_sRGB);
    EXPECT_NE(srgb, nullptr) << "sRGB and linear views need no PixelFormatView usage";
    array->release(); // the views keep it alive
    seen.assign(8, 0);
    view->getBytes(seen.data(), 16, MTL::Region(0, 0, 4, 2), 0);
    EXPECT_EQ(seen, written);
    EXPECT_EQ(reports_.size(), 3u);
    srgb->release();
    view->release();
}


// Test that a texture over a buffer reads and writes the buffer's bytes through its row
// pitch, and that Metal's conditions on it are checked.
TEST_F(TextureTest, TextureOverABuffer) {
    MTL::Buffer* memory = device_->newBuffer(16 + 32 * 3, MTL::ResourceStorageModeShared);
    auto* bytes = static_cast<std::uint8_t*>(memory->contents());
    for (unsigned i = 0; i < memory->length(); ++i) bytes[i] = std::uint8_t(i);
    auto d = NS::TransferPtr(MTL::TextureDescriptor::alloc()->init());
    d->setPixelFormat(MTL::PixelFormatR16Uint);
    d->setWidth(10);
    d->setHeight(3);
    MTL::Texture* texture = memory->newTexture(d.get(), 16, 32);
    ASSERT_NE(texture, nullptr);
    EXPECT_EQ(texture->storageMode(), MTL::StorageModeShared);
    std::vector<std::uint8_t> out(20 * 3);
    texture->getBytes(out.data(), 20, MTL::Region(0, 0, 10, 3), 0);
    for (unsigned y = 0; y < 3; ++y)
        for (unsigned b = 0; b < 20; ++b) ASSERT_EQ(out[y * 20 + b], std::uint8_t(16 + y * 32 + b));
    const std::uint16_t one = 0xbeef;
    texture->replaceRegion(MTL::Region(9, 2, 1, 1), 0, &one, 2);
    EXPECT_EQ(bytes[16 + 2 * 32 + 18], 0xef);
    EXPECT_EQ(bytes[16 + 2 * 32 + 19], 0xbe);
    EXPECT_TRUE(reports_.empty());

    EXPECT_EQ(memory->newTexture(d.get(), 8, 32), nullptr);
    EXPECT_NE(reports_.back().find("offset(8) must be a multiple of 16 bytes."), std::string::npos);
    EXPECT_EQ(memory->newTexture(d.get(), 16, 24), nullptr);
    EXPECT_NE(reports_.back().find("bytesPerRow(24) must be a multiple of 16 bytes"), std::string::npos);
    EXPECT_EQ(memory->newTexture(d.get(), 48, 32), nullptr);
    EXPECT_NE(reports_.back().find("must fit in the buffer length(112)"), std::string::npos);
    EXPECT_EQ(reports_.size(), 3u);
    memory->release(); // the texture keeps it
    texture->getBytes(out.data(), 20, MTL::Region(0, 0, 10, 3), 0);
    EXPECT_EQ(out[0], 16);
    texture->release();
}

} // namespace
} // namespace metalcpu::testing
