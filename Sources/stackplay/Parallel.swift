#if canImport(Glibc)
    import Glibc
#endif

/// Runs `body` over `items` on `jobs` threads and returns the results in the items' order.
/// Each thread takes the next item when it is free; a Lua state never leaves the thread that
/// made it, since each call of `body` makes its own.
func parallelMap<T: Sendable, R: Sendable>(_ items: [T], jobs: Int, _ body: @escaping @Sendable (T) -> R)
    -> [R]
{
    if jobs <= 1 || items.count <= 1 { return items.map(body) }
    let work = SharedWork(items: items, body: body)
    let threads = (0..<min(jobs, items.count)).compactMap { _ in startThread(draining: work) }
    if threads.isEmpty { work.drain() }
    for thread in threads { pthread_join(thread, nil) }
    return work.results.map { $0! }
}

/// Something a thread empties.
private protocol Drainable: AnyObject, Sendable {
    func drain()
}

/// Starts a thread that calls `work.drain()`; nil when no thread could be made.
private func startThread(draining work: any Drainable) -> pthread_t? {
    final class Box: @unchecked Sendable {
        let work: any Drainable
        init(_ work: any Drainable) { self.work = work }
    }
    var thread = pthread_t()
    let box = Unmanaged.passRetained(Box(work)).toOpaque()
    let status = pthread_create(
        &thread, nil,
        { raw in
            Unmanaged<Box>.fromOpaque(raw!).takeRetainedValue().work.drain()
            return nil
        }, box)
    guard status == 0 else {
        Unmanaged<Box>.fromOpaque(box).release()
        return nil
    }
    return thread
}

/// The queue of items and the results, guarded by one mutex.
private final class SharedWork<T: Sendable, R: Sendable>: Drainable, @unchecked Sendable {
    let items: [T]
    let body: @Sendable (T) -> R
    var results: [R?]
    private var next = 0
    private var mutex = pthread_mutex_t()

    init(items: [T], body: @escaping @Sendable (T) -> R) {
        self.items = items
        self.body = body
        results = Array(repeating: nil, count: items.count)
        pthread_mutex_init(&mutex, nil)
    }

    deinit { pthread_mutex_destroy(&mutex) }

    private func take() -> Int? {
        pthread_mutex_lock(&mutex)
        defer { pthread_mutex_unlock(&mutex) }
        guard next < items.count else { return nil }
        next += 1
        return next - 1
    }

    func drain() {
        while let index = take() {
            let result = body(items[index])
            pthread_mutex_lock(&mutex)
            results[index] = result
            pthread_mutex_unlock(&mutex)
        }
    }
}
