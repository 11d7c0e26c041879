// The browser suites' own requests to the gateways they start (fetch in test files) open a new
// connection each time. With keep-alive, a request sent on a connection idle for about the
// gateway's keep-alive timeout (5 s) can cross the server's close of it and fail with "other side
// closed" (undici keeps an idle socket 1 s less than the server's hint, measured from when it read
// the answer; on a loaded machine the two clocks drift by more than that). Chromium's own requests
// are not affected: they are not made through Node's fetch.
import { Agent, setGlobalDispatcher } from 'undici';

setGlobalDispatcher(new Agent({ pipelining: 0 }));
