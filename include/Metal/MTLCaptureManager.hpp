// metalcpu: CaptureManager, the GPU frame capture API. metalcpu has no capture tool; the
// classes exist so that programs which set up captures compile.
#pragma once

#include "../Foundation/Foundation.hpp"
#include "MTLCaptureScope.hpp"
#include "MTLDefines.hpp"

namespace MTL {

class CommandQueue;
class Device;

} // namespace MTL

namespace MTL4 {
class CommandQueue;
}

namespace MTL {

enum CaptureError : NS::Integer {
    CaptureErrorNotSupported = 1,
    CaptureErrorAlreadyCapturing = 2,
    CaptureErrorInvalidDescriptor = 3,
};

enum CaptureDestination : NS::Integer {
    CaptureDestinationDeveloperTools = 1,
    CaptureDestinationGPUTraceDocument = 2,
};

// What to capture and where to write the trace.
class CaptureDescriptor : public NS::Copying<CaptureDescriptor> {
public:
    static CaptureDescriptor* alloc();
    CaptureDescriptor* init();

    NS::Object* captureObject() const;
    void setCaptureObject(NS::Object* captureObject);
    CaptureDestination destination() const;
    void setDestination(CaptureDestination destination);
    NS::URL* outputURL() const;
    void setOutputURL(const NS::URL* outputURL);
};

class CaptureManager : public NS::Referencing<CaptureManager> {
public:
    static CaptureManager* sharedCaptureManager();
    static CaptureManager* alloc();
    CaptureManager* init();

    CaptureScope* newCaptureScope(const Device* device);
    CaptureScope* newCaptureScope(const CommandQueue* commandQueue);
    CaptureScope* newCaptureScope(const MTL4::CommandQueue* commandQueue);
    CaptureScope* defaultCaptureScope() const;
    void setDefaultCaptureScope(const CaptureScope* defaultCaptureScope);

    bool supportsDestination(CaptureDestination destination);
    bool startCapture(const CaptureDescriptor* descriptor, NS::Error** error);
    void startCapture(const Device* device);
    void startCapture(const CommandQueue* commandQueue);
    void startCapture(const CaptureScope* captureScope);
    void stopCapture();
    bool isCapturing() const;
};

} // namespace MTL
