import Glibc

// The arithmetic of a crossfade's overlap (docs/ARCHITECTURE.md, "Crossfade"): the incoming track's samples added into the
// outgoing track's last seconds along an equal-power curve, in the outgoing stream's own sample format, so that
// samples outside the overlap are never touched (a same-album joint and crossfade 0 stay bit-exact). The
// CrossfadeJoint's probe calls it, on a streaming thread.

/// The gains of an overlap of `length` seconds starting at `start` (the outgoing track's stream time): the outgoing
/// track at cos(½πg), the incoming at sin(½πg), g going from 0 to 1, so the squares add to 1 and two unrelated
/// signals keep their loudness through the joint.
struct EqualPowerCurve: Equatable {
    let start: Double
    let length: Double

    /// (1, 0) before the overlap, (0, 1) after it.
    func gains(at time: Double) -> (outgoing: Double, incoming: Double) {
        let progress = length > 0 ? min(max((time - start) / length, 0), 1) : 1
        let angle = progress * Double.pi / 2
        return (cos(angle), sin(angle))
    }
}

/// The sample formats the overlap mixes in: GStreamer's names for interleaved little-endian audio.
enum MixedSampleFormat: String, CaseIterable {
    case s16 = "S16LE"
    case s32 = "S32LE"
    case f32 = "F32LE"
    case f64 = "F64LE"

    var bytesPerSample: Int {
        switch self {
        case .s16: 2
        case .s32, .f32: 4
        case .f64: 8
        }
    }
}

/// One overlap: the incoming track's frames added into the outgoing track's frames that fall in it.
struct OverlapMix {
    let format: MixedSampleFormat
    let channels: Int
    let rate: Int
    let curve: EqualPowerCurve

    var bytesPerFrame: Int { format.bytesPerSample * channels }

    /// Adds `incoming` frame by frame into the frames of `outgoing` that lie in or after the overlap's start,
    /// `outgoing`'s first frame being at `time` (seconds of the outgoing stream); frames before the start are left
    /// as they are. Returns how many frames of `incoming` were used (as many as both buffers hold).
    func add(_ incoming: UnsafeRawBufferPointer, into outgoing: UnsafeMutableRawBufferPointer, firstFrameAt time: Double) -> Int {
        let first = firstMixedFrame(of: outgoing, at: time)
        let used = min(outgoing.count / bytesPerFrame - first, incoming.count / bytesPerFrame)
        for frame in 0..<max(used, 0) {
            let gains = curve.gains(at: time + Double(first + frame) / Double(rate))
            addFrame(incoming, at: frame * bytesPerFrame, into: outgoing, at: (first + frame) * bytesPerFrame, gains)
        }
        return max(used, 0)
    }

    /// The first frame of `outgoing` (its first frame at `time`) in or after the overlap's start; its frame count
    /// when none is.
    func firstMixedFrame(of outgoing: UnsafeMutableRawBufferPointer, at time: Double) -> Int {
        min(max(Int(((curve.start - time) * Double(rate)).rounded(.up)), 0), outgoing.count / bytesPerFrame)
    }

    private func addFrame(_ incoming: UnsafeRawBufferPointer, at source: Int, into outgoing: UnsafeMutableRawBufferPointer,
                          at target: Int, _ gains: (outgoing: Double, incoming: Double)) {
        for channel in 0..<channels {
            let offset = channel * format.bytesPerSample
            let mixed = sample(outgoing, at: target + offset) * gains.outgoing + sample(incoming, at: source + offset) * gains.incoming
            store(mixed, in: outgoing, at: target + offset)
        }
    }

    /// Integers as they are (full scale is the type's range), floats as numbers.
    private func sample(_ bytes: some SampleBytes, at offset: Int) -> Double {
        switch format {
        case .s16: Double(Int16(littleEndian: bytes.load(at: offset)))
        case .s32: Double(Int32(littleEndian: bytes.load(at: offset)))
        case .f32: Double(Float(bitPattern: UInt32(littleEndian: bytes.load(at: offset))))
        case .f64: Double(bitPattern: UInt64(littleEndian: bytes.load(at: offset)))
        }
    }

    /// Integers rounded and clamped to their range (a sum past full scale clips, as any mixer's does).
    private func store(_ value: Double, in bytes: UnsafeMutableRawBufferPointer, at offset: Int) {
        switch format {
        case .s16: bytes.storeBytes(of: Int16(clamping: Int(value.rounded())).littleEndian, toByteOffset: offset, as: Int16.self)
        case .s32: bytes.storeBytes(of: Int32(clamping: Int(value.rounded())).littleEndian, toByteOffset: offset, as: Int32.self)
        case .f32: bytes.storeBytes(of: Float(value).bitPattern.littleEndian, toByteOffset: offset, as: UInt32.self)
        case .f64: bytes.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
        }
    }
}

/// Raw bytes samples are read from: the outgoing buffer (mutable) and the incoming one.
protocol SampleBytes {
    func load<T: FixedWidthInteger>(at offset: Int) -> T
}

extension UnsafeRawBufferPointer: SampleBytes {
    func load<T: FixedWidthInteger>(at offset: Int) -> T { loadUnaligned(fromByteOffset: offset, as: T.self) }
}

extension UnsafeMutableRawBufferPointer: SampleBytes {
    func load<T: FixedWidthInteger>(at offset: Int) -> T { loadUnaligned(fromByteOffset: offset, as: T.self) }
}
