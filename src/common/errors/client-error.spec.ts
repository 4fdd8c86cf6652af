import { clientErrorResponse } from './client-error.js';

describe('clientErrorResponse', () => {
  it('gives each parser failure its status and one error sentence', () => {
    expect(clientErrorResponse('HPE_HEADER_OVERFLOW')).toEqual({
      status: 431,
      body: { error: 'Request headers (or the URL) are too large' },
    });
    expect(clientErrorResponse('ERR_HTTP_REQUEST_TIMEOUT')).toEqual({
      status: 408,
      body: { error: 'The request took too long to arrive' },
    });
    expect(clientErrorResponse('HPE_INVALID_METHOD')).toEqual({
      status: 400,
      body: { error: 'Malformed request' },
    });
  });
});
