export * from './fields';
export * from './useForm';
