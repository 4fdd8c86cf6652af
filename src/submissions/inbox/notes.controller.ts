import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  HttpStatus,
  Param,
  Patch,
  Post,
} from '@nestjs/common';
import {
  ApiNotFoundResponse,
  ApiParam,
  ApiServiceUnavailableResponse,
  ApiTags,
} from '@nestjs/swagger';
import { ApiKeyAuth, Principal } from '../../auth/api-key-auth.decorator.js';
import type { ApiPrincipal } from '../../auth/principal.js';
import { Requires } from '../../auth/route-access.decorator.js';
import { WithDeadline } from '../../common/http/deadline.interceptor.js';
import { AccessibleForm } from '../../forms/routes/accessible-form.decorator.js';
import type { Form } from '../../forms/form.entity.js';
import {
  FORM_ID_PARAM,
  FORM_NOT_FOUND_RESPONSE,
} from '../../forms/routes/form-route.openapi.js';
import { NoteBodyDto, NoteDto, NoteListDto } from '../dto/note.dto.js';
import { UNAVAILABLE_RESPONSE } from '../submissions.openapi.js';
import { actorOf } from './inbox-actor.js';
import { InboxApiService } from './inbox-api.service.js';
import {
  AddNoteDocs,
  DeleteNoteDocs,
  EditNoteDocs,
  ListNotesDocs,
} from './inbox.openapi.js';

/** Members' notes on a submission: /api/v1/forms/:id/submissions/:submissionId/notes… */
@ApiTags('submissions')
@ApiKeyAuth()
@ApiParam(FORM_ID_PARAM)
@ApiNotFoundResponse(FORM_NOT_FOUND_RESPONSE)
@ApiServiceUnavailableResponse(UNAVAILABLE_RESPONSE)
@WithDeadline()
@Controller('api/v1/forms/:id/submissions/:submissionId/notes')
export class NotesController {
  constructor(private readonly inbox: InboxApiService) {}

  @Get()
  @Requires('submissions.read')
  @ListNotesDocs()
  async list(
    @AccessibleForm() form: Form,
    @Param('submissionId') submissionId: string,
  ): Promise<NoteListDto> {
    return { data: await this.inbox.listNotes(form, submissionId) };
  }

  @Post()
  @Requires('submissions.work')
  @AddNoteDocs()
  async add(
    @AccessibleForm() form: Form,
    @Principal() principal: ApiPrincipal,
    @Param('submissionId') submissionId: string,
    @Body() body: NoteBodyDto,
  ): Promise<NoteDto> {
    return this.inbox.addNote(
      form,
      submissionId,
      body.text,
      actorOf(principal),
    );
  }

  @Patch(':noteId')
  @Requires('submissions.work')
  @EditNoteDocs()
  async edit(
    @AccessibleForm() form: Form,
    @Principal() principal: ApiPrincipal,
    @Param('submissionId') submissionId: string,
    @Param('noteId') noteId: string,
    @Body() body: NoteBodyDto,
  ): Promise<NoteDto> {
    return this.inbox.editNote(
      form,
      submissionId,
      noteId,
      body.text,
      actorOf(principal),
    );
  }

  @Delete(':noteId')
  @Requires('submissions.work')
  @HttpCode(HttpStatus.NO_CONTENT)
  @DeleteNoteDocs()
  async remove(
    @AccessibleForm() form: Form,
    @Principal() principal: ApiPrincipal,
    @Param('submissionId') submissionId: string,
    @Param('noteId') noteId: string,
  ): Promise<void> {
    await this.inbox.removeNote(form, submissionId, noteId, actorOf(principal));
  }
}
