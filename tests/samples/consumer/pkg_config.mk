# A program built by make against an installed metalcpu through pkg-config alone (no CMake):
#   PKG_CONFIG_PATH=<prefix>/lib/pkgconfig make -f pkg_config.mk SRC=<this directory>
# default.metallib: scale_a = 1000 + 5 * 2, scale_b = 37 * 3 + 7 (as in CMakeLists.txt).
SRC ?= .
PKG_CONFIG ?= pkg-config
METAL := $(shell $(PKG_CONFIG) --variable=metal metalcpu)
METALLIB := $(shell $(PKG_CONFIG) --variable=metallib metalcpu)
CXXFLAGS += -std=c++17 -I$(SRC)/host_include $(shell $(PKG_CONFIG) --cflags metalcpu)
# A shared libmetalcpu is found where pkg-config says it is; harmless for a static one.
LDFLAGS += -Wl,-rpath,$(shell $(PKG_CONFIG) --variable=libdir metalcpu)
LDLIBS += $(shell $(PKG_CONFIG) --libs metalcpu)

all: run_kernels default.metallib

run_kernels: $(SRC)/run_kernels.cpp
	$(CXX) $(CXXFLAGS) $< -o $@ $(LDFLAGS) $(LDLIBS)

scale_a.air: $(SRC)/kernels/a/scale.metal
	$(METAL) -c $< -o $@ -I$(SRC)/include -DFACTOR=5

scale_b.air: $(SRC)/kernels/b/scale.metal
	$(METAL) -c $< -o $@ -I$(SRC)/host_include -DFROM_OPTIONS=7

default.metallib: scale_a.air scale_b.air
	$(METALLIB) $^ -o $@
