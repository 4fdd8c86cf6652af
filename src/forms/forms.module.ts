import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { Form } from './form.entity.js';
import { FormsService } from './forms.service.js';

@Module({
  imports: [TypeOrmModule.forFeature([Form])],
  providers: [FormsService],
  exports: [FormsService],
})
export class FormsModule {}
