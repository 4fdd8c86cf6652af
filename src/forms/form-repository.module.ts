import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Form } from './form.entity.js';
import { FormRepository } from './form.repository.js';

/**
 * The form table's one owner. Its own module, so the features that read forms (the submit
 * cache, the notification channels and worker) take the repository without the forms API.
 */
@Module({
  imports: [TypeOrmModule.forFeature([Form])],
  providers: [FormRepository],
  exports: [FormRepository],
})
export class FormRepositoryModule {}
