import { ResourceIdPipe } from './resource-id.pipe';

describe('ResourceIdPipe', () => {
  const pipe = new ResourceIdPipe('BATCH_NOT_FOUND');

  it('passes a UUID through', () => {
    expect(pipe.transform('0b6f3f8e-5c1d-4f7a-9e2b-3c4d5e6f7a8b')).toBe('0b6f3f8e-5c1d-4f7a-9e2b-3c4d5e6f7a8b');
  });

  it.each(['x', '1', "0b6f3f8e-5c1d-4f7a-9e2b-3c4d5e6f7a8b' OR 1=1"])('answers %j as the unknown resource it names', (id) => {
    expect(() => pipe.transform(id)).toThrow(expect.objectContaining({ code: 'BATCH_NOT_FOUND', status: 404 }));
  });
});
