import DBus
import EventLoop
import Glibc
import TestSupport
import XCTest

/// Unix file descriptors (`h`): received ones are ours (logind inhibitor locks); sending is refused.
final class FileDescriptorTests: XCTestCase {
    /// python3-dbus passes the read end of a pipe and writes into the other end: the descriptor we hold
    /// reads those bytes, and closing it is seen by the writer (EPIPE), as logind sees a released lock.
    func testReceivedDescriptorIsOursToReadAndClose() throws {
        let service = try TestService()
        let child = try service.start("/usr/bin/python3", ["-c", pythonPrologue + """
        import os, time
        r, w = os.pipe()
        test.Record(dbus.types.UnixFd(r))
        os.close(r)
        os.write(w, b'ping')
        print('sent', flush=True)
        deadline = time.time() + 20
        while time.time() < deadline:
            try:
                os.write(w, b'.')
                time.sleep(0.02)
            except BrokenPipeError:
                print('closed', flush=True)
                break
        """])
        XCTAssertTrue(pump(until: { child.standardOutput.contains("sent") }, timeout: 20), child.standardError)
        XCTAssertEqual(service.recorded.count, 1)
        guard let fd = service.recorded.first?.fileDescriptorValue else {
            return XCTFail("expected a file descriptor, got \(service.recorded)")
        }
        XCTAssertEqual(service.recorded.first?.signature, "v")
        XCTAssertEqual(service.recorded.first?.unwrapped.signature, "h")
        var bytes = [UInt8](repeating: 0, count: 4)
        XCTAssertEqual(read(fd.rawValue, &bytes, 4), 4)
        XCTAssertEqual(String(decoding: bytes, as: UTF8.self), "ping")

        let number = fd.rawValue
        fd.close()
        XCTAssertFalse(fd.isOpen)
        XCTAssertEqual(fcntl(number, F_GETFD), -1, "the descriptor must really be closed")
        fd.close()  // a second close does nothing (and must not close a reused number)
        XCTAssertTrue(pump(until: { child.standardOutput.contains("closed") }, timeout: 20), child.standardError)
    }

    func testSendingADescriptorIsNotSupported() throws {
        let service = try TestService()
        let output = try service.runPython(pythonPrologue + """
        import os
        r, w = os.pipe()
        print(error_of(test.Echo, dbus.types.UnixFd(r)))
        """)
        XCTAssertEqual(output, "org.freedesktop.DBus.Error.NotSupported: sending unix file descriptors is not supported\n")
    }
}
