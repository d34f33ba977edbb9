// `import APICheckTesting` is enough in a test: the interceptor and the stub model come with it.
@_exported import APICheckInterceptor
@_exported import APICheckModel
