import 'reflect-metadata';
import { getMetadataStorage, IsInt, IsString, validate } from 'class-validator';
import { memoizeValidationMetadata } from './validation-metadata-cache';

class Base {
  @IsString() name!: string;
}
class Child extends Base {
  @IsInt() count!: number;
}

const properties = (target: new () => object) =>
  getMetadataStorage()
    .getTargetValidationMetadatas(target, '', true, false)
    .map((m) => m.propertyName)
    .sort();

describe('memoizeValidationMetadata', () => {
  beforeAll(() => memoizeValidationMetadata());

  it('answers what class-validator answers, inherited rules included, from the cache on a second call', () => {
    const first = getMetadataStorage().getTargetValidationMetadatas(Child, '', true, false);
    expect(first.map((m) => m.propertyName).sort()).toEqual(['count', 'name']);
    expect(getMetadataStorage().getTargetValidationMetadatas(Child, '', true, false)).toBe(first);
    // Another argument tuple is another entry.
    expect(getMetadataStorage().getTargetValidationMetadatas(Child, '', false, false, ['g'])).not.toBe(first);
  });

  it('drops the cache when a rule is registered, so a rule added later is seen', async () => {
    expect(properties(Base)).toEqual(['name']);
    IsInt()(Base.prototype, 'late');
    expect(properties(Base)).toEqual(['late', 'name']);
    expect(properties(Child)).toEqual(['count', 'late', 'name']);
    const child = Object.assign(new Child(), { name: 'x', count: 1, late: 'not an int' });
    expect((await validate(child)).map((e) => e.property)).toEqual(['late']);
  });

  it('is installed once', () => {
    const installed = getMetadataStorage().getTargetValidationMetadatas;
    memoizeValidationMetadata();
    expect(getMetadataStorage().getTargetValidationMetadatas).toBe(installed);
  });
});
