#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import NIOCore

/// On the listening channel: at most ``StubServer/Limits/maximumConnections`` connections open,
/// and a pause instead of a busy loop when accepting fails.
///
/// At the limit, accepting pauses (the listening socket is not read, so new clients wait in the
/// kernel's backlog, as nginx's do beyond `worker_connections`) and resumes when one closes.
///
/// Out of descriptors, `accept` fails with `EMFILE` while the connection stays queued, so the
/// socket stays readable: retrying at once spins a core (measured: 55,000 failed `accept4` calls
/// in 3 s). NIO's `AcceptBackoffHandler` cannot stop it here, as the failed read stays pending in
/// the channel; turning `autoRead` off takes the socket out of the selector. Accepting resumes
/// after ``backoff`` and the log says so once per episode.
final class ConnectionLimiter: ChannelDuplexHandler {
    typealias InboundIn = any Channel
    typealias InboundOut = any Channel
    typealias OutboundIn = Never

    /// How long accepting pauses after it failed for want of descriptors or memory: short, so a
    /// freed descriptor is used soon, and long enough that the retries cost nothing.
    static let backoff = TimeAmount.milliseconds(100)

    private let maximum: Int
    private let logger: Logger
    private var open = 0
    private var readHeld = false
    private var backingOff = false
    private var resume: Scheduled<Void>?

    init(maximum: Int, logger: Logger) {
        self.maximum = max(maximum, 1)
        self.logger = logger
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let child = unwrapInboundIn(data)
        if backingOff {
            backingOff = false
            logger.notice("accepting connections again")
        }
        // One accept per read (StubServer), so this is a safety net, not the way the limit works.
        guard open < maximum else {
            child.close(promise: nil)
            return
        }
        open += 1
        let limiter = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        child.closeFuture.whenComplete { _ in
            limiter.eventLoop.execute {
                let (handler, context) = limiter.value
                handler.childClosed(context: context)
            }
        }
        context.fireChannelRead(data)
    }

    func read(context: ChannelHandlerContext) {
        guard open < maximum else {
            if !readHeld {
                logger.warning("\(open) connections are open (--max-connections \(maximum)): new ones wait until one closes")
            }
            readHeld = true
            return
        }
        context.read()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        guard let error = error as? IOError else {
            context.fireErrorCaught(error)
            return
        }
        let outOfResources = [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode)
        if !backingOff {
            backingOff = true
            if outOfResources {
                logger.error("cannot accept connections: \(error) (raise the descriptor limit, e.g. 'ulimit -n 65536', or lower --max-connections); open connections are still served, and accepting resumes when descriptors free up")
            } else {
                logger.error("cannot accept connections: \(error); retrying every second")
            }
        }
        guard resume == nil, let options = context.channel.syncOptions else { return }
        try? options.setOption(ChannelOptions.autoRead, value: false)
        let channel = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        resume = context.eventLoop.scheduleTask(in: outOfResources ? Self.backoff : .seconds(1)) {
            let (handler, context) = channel.value
            handler.resume = nil
            try? context.channel.syncOptions?.setOption(ChannelOptions.autoRead, value: true)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        resume?.cancel()
        resume = nil
        context.fireChannelInactive()
    }

    private func childClosed(context: ChannelHandlerContext) {
        open -= 1
        guard readHeld, open < maximum else { return }
        readHeld = false
        context.read()
    }
}
