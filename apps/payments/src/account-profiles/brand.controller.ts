// The seller's brand colour as a stylesheet for the pages under /pay (the CSP allows no
// inline style). The colour is the address: nothing is looked up and nothing revealed.

import { Controller, Get, Param, Res } from '@nestjs/common';
import { brandCss, notFound, Public, sendStylesheet } from '@paygrid/platform';
import type { FastifyReply } from 'fastify';

@Controller('pay/brand')
export class BrandController {
  @Get(':file')
  @Public()
  brand(@Param('file') file: string, @Res() reply: FastifyReply) {
    const color = /^([0-9a-f]{6})\.css$/.exec(file)?.[1];
    if (!color) throw notFound('stylesheet', file);
    return sendStylesheet(reply, brandCss(`#${color}`));
  }
}
